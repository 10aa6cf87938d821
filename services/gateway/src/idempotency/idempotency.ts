import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '@kasa/http';

/** How long a finished request's answer is replayed from Redis; the ledger keeps the record itself forever. */
export const IDEMPOTENCY_TTL_SECONDS = 48 * 3600;
/** How long an in-flight claim lives if its gateway dies mid-request. */
const IN_FLIGHT_TTL_MS = 60_000;
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
  replayed: boolean;
}

interface Entry {
  state: 'in_flight' | 'done';
  fingerprint: string;
  status?: number;
  body?: string;
}

/** Reads and checks the Idempotency-Key header (1 to 255 visible characters). */
export function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined || header === '') {
    throw new AppError('idempotency_key_missing', 'Every POST needs an Idempotency-Key header (a UUID is a good choice).');
  }
  if (!VISIBLE_ASCII.test(header)) {
    throw AppError.validation([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  }
  return header;
}

/**
 * The IETF idempotency-key draft over Redis: the first request claims the key, concurrent ones get 409,
 * later ones replay the stored answer (or 422 with another body). Only successes are stored; a failure
 * releases the claim so the client can retry. Redis is a fast path only: the ledger's unique constraint
 * answers correctly when Redis has lost the key.
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async run(
    scope: { siteId: string; route: string; key: string; fingerprint: string },
    execute: () => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    const redisKey = `${this.prefix}:idem:${scope.siteId}:${scope.route}:${createHash('sha256').update(scope.key).digest('hex')}`;
    const claim: Entry = { state: 'in_flight', fingerprint: scope.fingerprint };
    let claimed: string | null;
    let existingRaw: string | null = null;
    try {
      claimed = await this.redis.set(redisKey, JSON.stringify(claim), 'PX', IN_FLIGHT_TTL_MS, 'NX');
      if (!claimed) existingRaw = await this.redis.get(redisKey);
    } catch {
      throw new AppError('service_unavailable', 'The service is temporarily unavailable; retry with the same Idempotency-Key.');
    }
    if (!claimed) {
      if (existingRaw === null) {
        // The other request finished with an error and released the key a moment ago.
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key was just in progress; retry.');
      }
      const existing = JSON.parse(existingRaw) as Entry;
      if (existing.fingerprint !== scope.fingerprint) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
      }
      if (existing.state === 'in_flight') {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly.');
      }
      return { status: existing.status ?? 200, body: existing.body ?? '{}', replayed: true };
    }
    let result: StoredResponse;
    try {
      result = await execute();
    } catch (error) {
      await this.redis.del(redisKey).catch(() => undefined);
      throw error;
    }
    const done: Entry = { state: 'done', fingerprint: scope.fingerprint, status: result.status, body: result.body };
    // Not awaited: the answer does not wait for this write. A retry that arrives before it lands sees the
    // claim (409, retry) and losing it only costs a trip to the ledger, which answers from its own record.
    this.redis.set(redisKey, JSON.stringify(done), 'EX', IDEMPOTENCY_TTL_SECONDS).catch(() => undefined);
    return result;
  }
}
