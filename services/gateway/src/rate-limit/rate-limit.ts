import type { RedisClient } from '@kasa/redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@kasa/http';

export const WINDOW_SECONDS = 60;
// The counter itself never refuses: each site's own budget is applied to its count after the fact, so the
// count can be taken in the same Redis round trip as the API-key lookup, before the budget is known.
const COUNTER_CEILING = 2 ** 31 - 1;

export interface RateState {
  consumed: number;
  msBeforeNext: number;
}

/**
 * A limiter in Redis, shared by every gateway replica, that counts in this process instead while Redis
 * cannot answer (down, not ready, or past the command timeout): limits stay in force through an outage,
 * per replica, so a site's budget is then approximate (up to its limit on each replica). The command
 * connection refuses commands at once while it reconnects (createCommandRedis), so an outage costs no time
 * per request.
 */
function sharedLimiter(redis: RedisClient, keyPrefix: string, points: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: WINDOW_SECONDS,
    insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS }),
  });
}

/**
 * Per-API-key request counter (fixed one-minute window from the key's first request), shared by every
 * gateway replica through Redis, per replica while Redis is away.
 */
export class RequestCounter {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: RedisClient, redisPrefix: string) {
    this.limiter = sharedLimiter(redis, `${redisPrefix}:rl`, COUNTER_CEILING);
  }

  /** Counts one request; fails only if the in-process fallback itself failed. */
  async count(key: string): Promise<RateState> {
    try {
      const state = await this.limiter.consume(key);
      return { consumed: state.consumedPoints, msBeforeNext: state.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes) return { consumed: error.consumedPoints, msBeforeNext: error.msBeforeNext };
      throw new AppError('service_unavailable', 'The service is temporarily unavailable.');
    }
  }
}

/**
 * The IETF RateLimit headers for a key's budget, and the 429 once the count is past it.
 * Returns the headers to set; throws `rate_limited` when over budget.
 */
export function applyBudget(state: RateState, perMinute: number): Record<string, string> {
  const reset = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
  const headers = {
    'RateLimit-Policy': `"default";q=${perMinute};w=${WINDOW_SECONDS}`,
    RateLimit: `"default";r=${Math.max(0, perMinute - state.consumed)};t=${reset}`,
  };
  if (state.consumed > perMinute) {
    throw new AppError('rate_limited', `More than ${perMinute} requests in a minute; retry after ${reset} s.`, undefined, {
      ...headers,
      'Retry-After': String(Math.max(1, reset)),
    });
  }
  return headers;
}

/** What a failed-attempt allowance counts: its Redis keyspace, its RateLimit policy name, and what the 429 says. */
export interface FailedAttemptPolicy {
  keyspace: string;
  name: string;
  what: string;
}

const INVALID_KEY_POLICY: FailedAttemptPolicy = { keyspace: 'rl-badkey', name: 'invalid-key', what: 'an invalid API key' };

/** Deposit-page links that name no deposit, per client address: guessing links costs the guesser, not the ledger. */
export const UNKNOWN_PAGE_TOKEN_POLICY: FailedAttemptPolicy = {
  keyspace: 'rl-badpage',
  name: 'unknown-deposit-page',
  what: 'deposit-page links that name no deposit',
};

/**
 * Failed API-key attempts per client address (fixed one-minute window), shared by every gateway replica.
 * Once an address is over its allowance, it gets the same 429 contract as an exhausted key, and a key that
 * is not already known to the cache is not looked up at all: guessing keys costs the guesser, not the
 * database. Known-good keys from that address keep working.
 */
export class InvalidKeyLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(
    private readonly redis: RedisClient,
    redisPrefix: string,
    private readonly perMinute: number,
    private readonly policy: FailedAttemptPolicy = INVALID_KEY_POLICY,
  ) {
    this.limiter = sharedLimiter(redis, `${redisPrefix}:${policy.keyspace}`, perMinute);
  }

  /**
   * The `rate_limited` refusal when the address has used its allowance of failed attempts this minute, else
   * null. Never rejects: an allowance that cannot be read leaves the address unblocked (each refused key is
   * still counted, in this process while Redis is away).
   *
   * Asked on every authenticated request, and almost always answered "no failures": a plain GET of the
   * limiter's counter rides the request's auto-pipelined round trip, where the library's own read is a
   * MULTI/GET/PTTL/EXEC transaction with a write of its own. Only an address that has failures (or a Redis
   * that cannot answer: the library then reads its in-process insurance counter) goes on to that read.
   */
  async refusalFor(address: string): Promise<AppError | null> {
    try {
      const count = await this.redis.get(this.limiter.getKey(address)).catch(() => undefined);
      if (count === null || (count !== undefined && Number(count) < this.perMinute)) return null;
      const state = await this.limiter.get(address);
      return state && state.consumedPoints >= this.perMinute ? this.refusal(state) : null;
    } catch {
      return null;
    }
  }

  /** Counts one failed attempt; throws `rate_limited` instead of the 401 once the allowance is used up. */
  async recordFailure(address: string): Promise<void> {
    try {
      await this.limiter.consume(address);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw this.refusal(error);
      // Counting must not turn a 401 into a 503: the caller's answer stays the 401.
    }
  }

  private refusal(state: RateLimiterRes): AppError {
    const reset = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    return new AppError(
      'rate_limited',
      `Too many requests with ${this.policy.what} from this address; retry after ${reset} s.`,
      undefined,
      {
        'RateLimit-Policy': `"${this.policy.name}";q=${this.perMinute};w=${WINDOW_SECONDS}`,
        RateLimit: `"${this.policy.name}";r=0;t=${reset}`,
        'Retry-After': String(reset),
      },
    );
  }
}
