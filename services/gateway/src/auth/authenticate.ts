import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { RedisClient } from '@kasa/redis';
import { authCacheKey, REVOKED, UNKNOWN, type Principal } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { LedgerClient } from '../ledger-client.js';
import { applyBudget, type InvalidKeyLimiter, type RequestCounter } from '../rate-limit/rate-limit.js';
import type { LocalPrincipalCache } from './principal-cache.js';
import type { KnownKeys } from './known-keys.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
      /** Who the request acts for, as the ledger resolved the API key. */
      principal: Principal;
    }
  }
}

// `sk_live_<slug>_<secret>`, or `sk_test_...` for the site's sandbox: the ledger knows a test key by its twin's slug.
const API_KEY = /^sk_(live|test)_([a-z0-9]+(?:-[a-z0-9]+)*)_([A-Za-z0-9_-]{32,128})$/;
const INVALID = 'The API key is not valid.';

/**
 * API-key authentication and the per-key rate limit, in one Redis round trip: the key's SHA-256 is looked
 * up in the shared cache the ledger fills while its request counter is bumped. A cache miss asks the
 * ledger, which reads PostgreSQL. Revocation overwrites the cache entry, so a revoked key is refused from
 * the next request on, by every gateway replica. An active key found there is kept in this process's memory
 * (known-keys.ts) while the ledger's revocation messages are heard: its next requests cost only the count. Every refused key counts against the client address; an
 * address over its allowance gets 429 and no further lookups for keys the cache does not know.
 *
 * Redis is an accelerator here, not a requirement: when it cannot answer, keys are resolved by the ledger
 * and kept in a short in-process cache, and both counters fall back to per-process ones (see
 * rate-limit.ts), so partners keep being served through a Redis outage.
 */
export function authenticate(deps: {
  redis: RedisClient;
  redisPrefix: string;
  ledger: LedgerClient;
  requestCounter: RequestCounter;
  invalidKeys: InvalidKeyLimiter;
  localPrincipals: LocalPrincipalCache;
  knownKeys: KnownKeys;
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
    // A key this process read a moment ago, while it hears every revocation: only the request is counted (a
    // known-good key is served even from an address over its failed-attempt allowance, so that is not read).
    const known = deps.knownKeys.get(keyHash);
    if (known) {
      res.locals.principal = known;
      res.set(applyBudget(await deps.requestCounter.count(keyHash), known.rateLimitPerMinute));
      next();
      return;
    }
    const slug = parsed[1] === 'test' ? `${parsed[2] as string}.test` : (parsed[2] as string);
    const version = deps.knownKeys.version;
    // Issued in the same tick, so the three commands share one round trip (one write with auto-pipelining on one
    // Redis; written one after another, without waiting, on a cluster), and awaited together, so none of them can
    // fail unobserved while another is awaited.
    const [counted, refusal, cached] = await Promise.all([
      deps.requestCounter.count(keyHash),
      deps.invalidKeys.refusalFor(address),
      readSharedCache(deps.redis, authCacheKey(deps.redisPrefix, keyHash), slug),
    ]);
    if (cached === REVOKED || cached === UNKNOWN) {
      if (refusal) throw refusal;
      return refuse(INVALID);
    }
    let principal: Principal;
    if (cached) {
      principal = cached;
      deps.knownKeys.remember(keyHash, principal, version);
    } else {
      // Redis could not answer: a key this process resolved a moment ago is trusted for a short while.
      const local = cached === undefined ? deps.localPrincipals.get(keyHash) : null;
      if (local) {
        principal = local;
      } else {
        if (refusal) throw refusal;
        try {
          const resolved = await deps.ledger.call('resolveApiKey', {}, req.requestId, { body: { keyHash, slug } });
          principal = JSON.parse(resolved.body) as Principal;
        } catch (error) {
          if (error instanceof AppError && error.code === 'unauthorized') return refuse(INVALID);
          throw error;
        }
        if (cached === undefined) deps.localPrincipals.set(keyHash, principal);
      }
    }
    res.locals.principal = principal;
    res.set(applyBudget(counted, principal.rateLimitPerMinute));
    next();
  };
}

/**
 * The shared cache's entry for a key hash: a marker or the principal, null when there is none, undefined when
 * Redis cannot answer. An answer that is neither a marker nor a principal of the key's own site and mode (a
 * cluster client once handed a GET another command's reply during a failover) is taken as no answer, so the
 * key is resolved as in an outage instead of acting for whichever site the stray reply names.
 */
async function readSharedCache(
  redis: RedisClient,
  cacheKey: string,
  slug: string,
): Promise<typeof REVOKED | typeof UNKNOWN | Principal | null | undefined> {
  let text: string | null;
  try {
    text = await redis.get(cacheKey);
  } catch {
    return undefined;
  }
  if (text === null || text === REVOKED || text === UNKNOWN) return text;
  try {
    const entry = JSON.parse(text) as Partial<Principal> | null;
    if (typeof entry !== 'object' || entry === null || entry.siteSlug !== slug) return undefined;
    if (typeof entry.siteId !== 'string' || typeof entry.apiKeyId !== 'string' || typeof entry.rateLimitPerMinute !== 'number')
      return undefined;
    return entry as Principal;
  } catch {
    return undefined;
  }
}
