import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { RedisClient } from '@kasa/redis';
import { authCacheKey, REVOKED, UNKNOWN, type Principal } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { LedgerClient } from '../ledger-client.js';
import { applyBudget, type InvalidKeyLimiter, type RequestCounter } from '../rate-limit/rate-limit.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
      /** Who the request acts for, as the ledger resolved the API key. */
      principal: Principal;
    }
  }
}

const API_KEY = /^sk_live_([a-z0-9]+(?:-[a-z0-9]+)*)_([A-Za-z0-9_-]{32,128})$/;
const INVALID = 'The API key is not valid.';

/**
 * API-key authentication and the per-key rate limit, in one Redis round trip: the key's SHA-256 is looked
 * up in the shared cache the ledger fills while its request counter is bumped. A cache miss asks the
 * ledger, which reads PostgreSQL. Revocation overwrites the cache entry, so a revoked key is refused from
 * the next request on, by every gateway replica. Every refused key counts against the client address; an
 * address over its allowance gets 429 and no further lookups for keys the cache does not know.
 */
export function authenticate(deps: {
  redis: RedisClient;
  redisPrefix: string;
  ledger: LedgerClient;
  requestCounter: RequestCounter;
  invalidKeys: InvalidKeyLimiter;
}): RequestHandler {
  return async (req, res, next) => {
    const address = req.ip ?? 'unknown';
    const refuse = async (message: string): Promise<never> => {
      await deps.invalidKeys.recordFailure(address);
      throw new AppError('unauthorized', message);
    };
    const header = req.get('authorization');
    if (!header) return refuse('Send your API key as Authorization: Bearer <API_KEY>.');
    const match = /^Bearer ([^\s]+)$/.exec(header);
    const key = match?.[1];
    const parsed = key ? API_KEY.exec(key) : null;
    if (!key || !parsed) return refuse(INVALID);
    const keyHash = createHash('sha256').update(key).digest('hex');
    // Issued in the same tick, so auto-pipelining sends the three commands in one round trip.
    const counted = deps.requestCounter.count(keyHash);
    const blocked = deps.invalidKeys.assertNotBlocked(address).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    let cached: string | null;
    try {
      cached = await deps.redis.get(authCacheKey(deps.redisPrefix, keyHash));
    } catch {
      counted.catch(() => undefined);
      throw new AppError('service_unavailable', 'The service is temporarily unavailable.', undefined, { 'Retry-After': '1' });
    }
    const refusal = await blocked;
    if (cached === REVOKED || cached === UNKNOWN) {
      counted.catch(() => undefined);
      if (refusal) throw refusal;
      return refuse(INVALID);
    }
    let principal: Principal;
    if (cached) {
      principal = JSON.parse(cached) as Principal;
    } else {
      if (refusal) {
        counted.catch(() => undefined);
        throw refusal;
      }
      try {
        const resolved = await deps.ledger.request('POST', '/internal/v1/auth/resolve', req.requestId, { keyHash, slug: parsed[1] });
        principal = JSON.parse(resolved.body) as Principal;
      } catch (error) {
        counted.catch(() => undefined);
        if (error instanceof AppError && error.code === 'unauthorized') return refuse(INVALID);
        throw error;
      }
    }
    res.locals.principal = principal;
    res.set(applyBudget(await counted, principal.rateLimitPerMinute));
    next();
  };
}
