import type { Redis } from 'ioredis';
import { AUTH_CACHE_SECONDS, REVOKED, UNKNOWN, UNKNOWN_CACHE_SECONDS, authCacheKey, type Principal } from '@kasa/contracts';
import type { ApiKeyRepository } from './api-key.repository.js';

/**
 * Resolves a key hash from the database and fills the shared auth cache. The cache is written with NX and
 * revocation overwrites it unconditionally, so a resolve racing a revoke can never leave a revoked key
 * cached as active.
 */
export async function resolveApiKey(
  deps: { apiKeys: ApiKeyRepository; redis: Redis; redisPrefix: string },
  keyHash: string,
  slug: string,
): Promise<Principal | null> {
  const owner = await deps.apiKeys.findOwnerByHash(keyHash);
  const cacheKey = authCacheKey(deps.redisPrefix, keyHash);
  if (!owner || owner.revoked || owner.siteSlug !== slug) {
    const marker = owner?.revoked ? REVOKED : UNKNOWN;
    await deps.redis.set(cacheKey, marker, 'EX', marker === REVOKED ? AUTH_CACHE_SECONDS : UNKNOWN_CACHE_SECONDS, 'NX');
    return null;
  }
  const principal: Principal = {
    apiKeyId: owner.apiKeyId,
    siteId: owner.siteId,
    siteSlug: owner.siteSlug,
    rateLimitPerMinute: owner.rateLimitPerMinute,
  };
  await deps.redis.set(cacheKey, JSON.stringify(principal), 'EX', AUTH_CACHE_SECONDS, 'NX');
  return principal;
}
