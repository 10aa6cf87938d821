import type { RedisClient } from '@kasa/redis';
import { AUTH_CACHE_SECONDS, REVOKED, UNKNOWN, UNKNOWN_CACHE_SECONDS, authCacheKey, type Principal } from '@kasa/contracts';
import type { ApiKeyRepository } from './api-key.repository.js';

/**
 * Resolves a key hash from the database and fills the shared auth cache. The cache is written with NX and
 * revocation overwrites it unconditionally, so a resolve racing a revoke can never leave a revoked key
 * cached as active. Filling the cache is best effort: with Redis down the answer comes from PostgreSQL
 * alone (the gateway keeps it in its own short in-process cache meanwhile).
 */
export async function resolveApiKey(
  deps: { apiKeys: ApiKeyRepository; redis: RedisClient; redisPrefix: string },
  keyHash: string,
  slug: string,
): Promise<Principal | null> {
  const owner = await deps.apiKeys.findOwnerByHash(keyHash);
  const cacheKey = authCacheKey(deps.redisPrefix, keyHash);
  if (!owner || owner.revoked || owner.siteSlug !== slug) {
    const marker = owner?.revoked ? REVOKED : UNKNOWN;
    fillCache(deps.redis, cacheKey, marker, marker === REVOKED ? AUTH_CACHE_SECONDS : UNKNOWN_CACHE_SECONDS);
    return null;
  }
  const principal: Principal = {
    apiKeyId: owner.apiKeyId,
    siteId: owner.siteId,
    siteSlug: owner.siteSlug,
    rateLimitPerMinute: owner.rateLimitPerMinute,
    livemode: owner.livemode,
  };
  fillCache(deps.redis, cacheKey, JSON.stringify(principal), AUTH_CACHE_SECONDS);
  return principal;
}

/**
 * Writes a cache entry unless one exists, without holding the answer for it: a Redis that is down, failing
 * or slow costs the cache, never the answer (NX keeps a late write from replacing a revocation's marker).
 */
function fillCache(redis: RedisClient, cacheKey: string, value: string, seconds: number): void {
  redis.set(cacheKey, value, 'EX', seconds, 'NX').catch(() => undefined);
}
