import type { Principal } from '@kasa/contracts';

/** How long a key resolved while Redis is away is trusted without asking the ledger again. */
export const LOCAL_PRINCIPAL_TTL_MS = 30_000;
/** Most keys one gateway process keeps; the oldest entry makes room for a new one. */
const MAX_ENTRIES = 10_000;

/**
 * The gateway's own short memory of resolved API keys, used only while the shared Redis cache cannot be
 * read: each key then costs the ledger one lookup per {@link LOCAL_PRINCIPAL_TTL_MS} instead of one per
 * request. Only active keys are kept (the ledger refuses revoked and unknown ones on every ask). A key
 * revoked while Redis is down cannot happen: revocation marks the shared cache first and answers 503
 * without it.
 */
export class LocalPrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = LOCAL_PRINCIPAL_TTL_MS,
  ) {}

  get(keyHash: string): Principal | null {
    const entry = this.entries.get(keyHash);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return null;
    }
    return entry.principal;
  }

  set(keyHash: string, principal: Principal): void {
    this.entries.delete(keyHash);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { principal, expiresAt: this.now() + this.ttlMs });
  }
}
