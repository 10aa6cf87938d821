import { createHash } from 'node:crypto';
import type { RedisClient } from '@kasa/redis';
import { AppError } from '@kasa/http';

/** How long a finished request's answer is replayed from Redis; the ledger keeps the record itself forever. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** How long an in-flight claim lives at most (a gateway that died mid-request leaves one behind). */
const IN_FLIGHT_TTL_MS = 60_000;
/**
 * A claim older than this is no longer trusted to finish: the retry goes to the ledger, whose record of the
 * key decides (it replays, refuses another body, or creates). A crashed gateway delays a retry by seconds.
 */
export const STALE_CLAIM_MS = 3_000;
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
  replayed: boolean;
}

/**
 * What Redis holds for a key, as one compact string (about 40 bytes plus the answer's JSON):
 * `i|<claimed at, ms>|<fingerprint>` while in flight, `d|<status>|<fingerprint>|<body>` when done.
 */
type Entry =
  { state: 'in_flight'; fingerprint: string; claimedAt: number } | { state: 'done'; fingerprint: string; status: number; body: string };

/** The first 128 bits of the SHA-256 fingerprint: enough to tell two bodies apart, half the bytes. */
const shortFingerprint = (fingerprint: string) => fingerprint.slice(0, 32);

function encode(entry: Entry): string {
  return entry.state === 'in_flight' ? `i|${entry.claimedAt}|${entry.fingerprint}` : `d|${entry.status}|${entry.fingerprint}|${entry.body}`;
}

function decode(raw: string): Entry | null {
  const [state, number, fingerprint, ...rest] = raw.split('|');
  if (number === undefined || fingerprint === undefined) return null;
  if (state === 'i') return { state: 'in_flight', claimedAt: Number(number), fingerprint };
  // The body is JSON and may itself hold '|'.
  if (state === 'd') return { state: 'done', status: Number(number), fingerprint, body: rest.join('|') };
  return null;
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
 * answers correctly when Redis has lost the key, and it alone decides while Redis cannot be reached (a
 * retry then replays the ledger's record, another body gets 422 from it; only the 409 for a request still
 * in flight is Redis's, and without it two concurrent requests with one key still make one record).
 * The event recovery and replay and the sandbox's steps always go through it; a deposit or withdrawal create only
 * with IDEMPOTENCY_LOST_RECORD_GUARD, otherwise the ledger's record alone decides its key (partner.routes.ts).
 */
export class IdempotencyStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /**
   * `keep`: `answer` stores the finished answer in Redis for replays; `fingerprint` stores only that the key is
   * done (for an answer holding a secret, such as a deposit's page link: a replay then asks the ledger, whose own
   * record of the key rebuilds the same answer, so no page token sits in Redis).
   */
  async run(
    scope: { siteId: string; route: string; key: string; fingerprint: string },
    execute: (answeredBefore: boolean) => Promise<StoredResponse>,
    keep: 'answer' | 'fingerprint' = 'answer',
  ): Promise<StoredResponse> {
    const redisKey = `${this.prefix}:idem:${scope.siteId}:${scope.route}:${createHash('sha256').update(scope.key).digest('base64url').slice(0, 22)}`;
    const fingerprint = shortFingerprint(scope.fingerprint);
    let claimed: string | null;
    let existing: Entry | null = null;
    try {
      claimed = await this.redis.set(
        redisKey,
        encode({ state: 'in_flight', fingerprint, claimedAt: Date.now() }),
        'PX',
        IN_FLIGHT_TTL_MS,
        'NX',
      );
      if (!claimed) {
        const raw = await this.redis.get(redisKey);
        existing = raw === null ? null : decode(raw);
      }
    } catch {
      // Redis failed or timed out: nothing was claimed, so nothing needs releasing; the ledger decides.
      return execute(false);
    }
    if (!claimed) {
      if (existing === null) {
        // The other request finished with an error and released the key a moment ago.
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key was just in progress; retry.');
      }
      if (existing.fingerprint !== fingerprint) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
      }
      // A done key without its answer (`keep: 'fingerprint'`): the ledger's record of the key replays it. The
      // ledger is told the key was answered, so a record lost in a database failover is refused (409), never
      // created again under a second id.
      if (existing.state === 'done')
        return existing.body === '' ? execute(true) : { status: existing.status, body: existing.body, replayed: true };
      if (Date.now() - existing.claimedAt < STALE_CLAIM_MS) {
        throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly.');
      }
      // A stale claim: its gateway may have died. The ledger's record of the key answers.
    }
    let result: StoredResponse;
    try {
      result = await execute(false);
    } catch (error) {
      if (claimed) await this.redis.del(redisKey).catch(() => undefined);
      throw error;
    }
    // Not awaited: the answer does not wait for this write. A retry that arrives before it lands sees the
    // claim (409, retry) and losing it only costs a trip to the ledger, which answers from its own record.
    this.redis
      .set(
        redisKey,
        encode({ state: 'done', fingerprint, status: result.status, body: keep === 'answer' ? result.body : '' }),
        'EX',
        IDEMPOTENCY_TTL_SECONDS,
      )
      .catch(() => undefined);
    return result;
  }
}
