import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { AppError } from '@kasa/http';
import type { LedgerClient } from '../ledger-client.js';
import { applyBudget, type RequestCounter } from './rate-limit.js';

/** Who the request acts for, as the ledger resolved the API key. */
export interface Principal {
  apiKeyId: string;
  siteId: string;
  siteSlug: string;
  rateLimitPerMinute: number;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
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
 * the next request on, by every gateway replica.
 */
export function authenticate(deps: { redis: Redis; redisPrefix: string; ledger: LedgerClient; requestCounter: RequestCounter }): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (!header) throw new AppError('unauthorized', 'Send your API key as Authorization: Bearer <API_KEY>.');
    const match = /^Bearer ([^\s]+)$/.exec(header);
    const key = match?.[1];
    const parsed = key ? API_KEY.exec(key) : null;
    if (!key || !parsed) throw new AppError('unauthorized', INVALID);
    const keyHash = createHash('sha256').update(key).digest('hex');
    let cached: string | null;
    const counted = deps.requestCounter.count(keyHash);
    try {
      cached = await deps.redis.get(`${deps.redisPrefix}:auth:${keyHash}`);
    } catch {
      counted.catch(() => undefined);
      throw new AppError('service_unavailable', 'The service is temporarily unavailable.');
    }
    if (cached === 'revoked' || cached === 'unknown') {
      counted.catch(() => undefined);
      throw new AppError('unauthorized', INVALID);
    }
    let principal: Principal;
    if (cached) {
      principal = JSON.parse(cached) as Principal;
    } else {
      try {
        const resolved = await deps.ledger.request('POST', '/internal/v1/auth/resolve', req.requestId, { keyHash, slug: parsed[1] });
        principal = JSON.parse(resolved.body) as Principal;
      } catch (error) {
        counted.catch(() => undefined);
        throw error;
      }
    }
    res.locals.principal = principal;
    res.set(applyBudget(await counted, principal.rateLimitPerMinute));
    next();
  };
}
