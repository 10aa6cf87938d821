/**
 * The API-key cache in Redis that the ledger fills and the gateway reads: one entry per key hash, holding
 * the key's principal as JSON, or a marker for a key that must be refused.
 */

/** Who an API key acts for; the JSON value of a cache entry. */
export interface Principal {
  apiKeyId: string;
  siteId: string;
  siteSlug: string;
  rateLimitPerMinute: number;
  /**
   * False for a test key (the site's sandbox). Absent in an entry cached before sandboxes existed: such a key is live.
   */
  livemode?: boolean;
}

/** How long a resolved or revoked key stays cached before the ledger is asked again. */
export const AUTH_CACHE_SECONDS = 300;

/** How long a key nobody issued stays cached as UNKNOWN: shorter, since it may be issued in the meantime. */
export const UNKNOWN_CACHE_SECONDS = 60;

/** The entry of a revoked key. */
export const REVOKED = 'revoked';

/** The entry of a key that no site owns (or that names the wrong site). */
export const UNKNOWN = 'unknown';

/** The Redis key of one API key's entry: `<prefix>:auth:<sha256 hex of the API key>`. */
export function authCacheKey(prefix: string, keyHash: string): string {
  return `${prefix}:auth:${keyHash}`;
}

/**
 * The pub/sub channel on which the ledger names each key hash whose entry it overwrote (revocation, a new rate
 * limit), after writing the entry: a gateway that keeps principals in its own memory drops the key at once.
 */
export function authChangesChannel(prefix: string): string {
  return `${prefix}:auth-changes`;
}
