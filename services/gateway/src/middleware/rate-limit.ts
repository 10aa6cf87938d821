import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
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
 * Per-API-key request counter in Redis (fixed one-minute window from the key's first request), shared by
 * every gateway replica.
 */
export class RequestCounter {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, redisPrefix: string) {
    this.limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${redisPrefix}:rl`, points: COUNTER_CEILING, duration: WINDOW_SECONDS });
  }

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
