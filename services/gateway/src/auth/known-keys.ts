import type { Principal } from '@kasa/contracts';

/**
 * How long a key read from the shared cache is trusted from this process's memory. Revocations and new rate limits
 * reach it at once through the ledger's messages; this only bounds what a lost message could cost.
 */
export const LOCAL_KEY_TTL_MS = 60_000;
/** Most keys one gateway process keeps; the oldest entry makes room for a new one. */
const MAX_ENTRIES = 10_000;

interface Entry {
  readonly principal: Principal;
  readonly expiresAt: number;
}

/**
 * Active API keys this gateway process has read from the shared auth cache, so a known key costs no Redis read.
 * Trusted only while the ledger's auth-change messages (authChangesChannel) are certainly being received: the
 * subscription's owner calls {@link trust} once it is subscribed and {@link distrust} when it is lost; both drop
 * every entry, since messages may have been missed in between.
 *
 * A read racing an invalidation: {@link remember} takes the {@link version} read before the shared cache was
 * asked, and keeps nothing if any message (or a trust change) arrived meanwhile. The ledger overwrites the shared
 * entry before it publishes, so an answer read after the publish is already the new one, and a message that
 * arrives after the entry was kept removes it.
 */
export class KnownKeys {
  private readonly entries = new Map<string, Entry>();
  private trusted = false;
  private changes = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = LOCAL_KEY_TTL_MS,
  ) {}

  /** The key's principal, or null when it is not known here or memory cannot be trusted now. */
  get(keyHash: string): Principal | null {
    if (!this.trusted) return null;
    const entry = this.entries.get(keyHash);
    if (entry === undefined) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return null;
    }
    return entry.principal;
  }

  /** Taken before asking the shared cache, and given back to {@link remember} with its answer. */
  get version(): number {
    return this.changes;
  }

  /** Keeps an active key's principal read from the shared cache, unless anything changed since `version`. */
  remember(keyHash: string, principal: Principal, version: number): void {
    if (!this.trusted || version !== this.changes) return;
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(keyHash)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(keyHash, { principal, expiresAt: this.now() + this.ttlMs });
  }

  /** The ledger changed this key's entry (revoked, new limit): the next request reads the shared cache. */
  forget(keyHash: string): void {
    this.changes += 1;
    this.entries.delete(keyHash);
  }

  /** Subscribed to the ledger's messages: memory may be used, starting empty. */
  trust(): void {
    this.changes += 1;
    this.entries.clear();
    this.trusted = true;
  }

  /** The subscription is lost: nothing in memory is used until {@link trust}. */
  distrust(): void {
    this.changes += 1;
    this.entries.clear();
    this.trusted = false;
  }

  /** Whether memory is used now (the subscription is in place). */
  get isTrusted(): boolean {
    return this.trusted;
  }

  get size(): number {
    return this.entries.size;
  }
}
