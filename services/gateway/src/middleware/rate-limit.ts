import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '@kasa/http';

const WINDOW_SECONDS = 60;

/**
 * Per-API-key rate limit (default 60 per minute, configurable per site), counted in Redis so every gateway
 * replica shares one budget. Headers follow the IETF RateLimit draft; a 429 adds Retry-After.
 */
export function rateLimit(deps: { redis: Redis; redisPrefix: string }): RequestHandler {
  // One limiter per distinct per-minute budget; sites mostly share the default.
  const limiters = new Map<number, RateLimiterRedis>();
  const limiterFor = (points: number): RateLimiterRedis => {
    let limiter = limiters.get(points);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: deps.redis,
        keyPrefix: `${deps.redisPrefix}:rl:${points}`,
        points,
        duration: WINDOW_SECONDS,
      });
      limiters.set(points, limiter);
    }
    return limiter;
  };

  return async (_req, res, next) => {
    const { apiKeyId, rateLimitPerMinute } = res.locals.principal;
    const setHeaders = (state: RateLimiterRes) => {
      const reset = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
      res.setHeader('RateLimit-Policy', `"default";q=${rateLimitPerMinute};w=${WINDOW_SECONDS}`);
      res.setHeader('RateLimit', `"default";r=${Math.max(0, state.remainingPoints)};t=${reset}`);
      return reset;
    };
    try {
      setHeaders(await limiterFor(rateLimitPerMinute).consume(apiKeyId));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        const reset = setHeaders(error);
        throw new AppError('rate_limited', `More than ${rateLimitPerMinute} requests in a minute; retry after ${reset} s.`, undefined, {
          'Retry-After': String(Math.max(1, reset)),
        });
      }
      throw new AppError('service_unavailable', 'The service is temporarily unavailable.');
    }
    next();
  };
}
