import type { RedisClient } from '@kasa/redis';

/**
 * What every worker replica should know about a site: whether its last finished attempt failed, and if its
 * endpoint stopped answering, until when nobody tries it (the breaker). `at` orders writes from different
 * replicas: the newest one wins.
 */
export interface SharedSiteHealth {
  failing: boolean;
  /** Attempts in a row that went unanswered (timed out or slower than half the timeout). */
  strikes: number;
  /** Epoch ms until which the site gets no attempt at all; 0 when the breaker is closed. */
  openUntil: number;
  /** Epoch ms of the change. */
  at: number;
}

/** Where the site health is shared; `read` resolves null when nothing (or nothing readable) is known. */
export interface SiteHealthStore {
  read(siteId: string): Promise<SharedSiteHealth | null>;
  write(siteId: string, health: SharedSiteHealth): Promise<void>;
}

export interface RedisSiteHealthStoreOptions {
  /** How long a record outlives its last change (and at least its breaker pause). */
  ttlMs?: number;
  /** A read or write waits no longer than this; a slow or absent Redis leaves each replica on its own. */
  commandTimeoutMs?: number;
}

/** Resolves with `fallback` when `promise` takes longer than `ms`; the promise's own failure is swallowed. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([promise.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}

function parse(raw: string | null): SharedSiteHealth | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<SharedSiteHealth>;
    if (typeof value.failing !== 'boolean' || typeof value.at !== 'number') return null;
    return { failing: value.failing, strikes: Number(value.strikes) || 0, openUntil: Number(value.openUntil) || 0, at: value.at };
  } catch {
    return null;
  }
}

/**
 * Site health in Redis, one small JSON string per site under `<keyPrefix>:<siteId>` with a TTL, written
 * only when a site's health changes (not per delivery). Losing it (a flush, an outage) costs each replica
 * one attempt per failing site to find out again.
 */
export class RedisSiteHealthStore implements SiteHealthStore {
  private readonly ttlMs: number;
  private readonly commandTimeoutMs: number;

  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
    options: RedisSiteHealthStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.commandTimeoutMs = options.commandTimeoutMs ?? 250;
  }

  key(siteId: string): string {
    return `${this.keyPrefix}:${siteId}`;
  }

  read(siteId: string): Promise<SharedSiteHealth | null> {
    return within(this.redis.get(this.key(siteId)).then(parse), this.commandTimeoutMs, null);
  }

  async write(siteId: string, health: SharedSiteHealth): Promise<void> {
    const ttl = Math.max(this.ttlMs, health.openUntil - Date.now() + 60_000);
    await within(
      this.redis.set(this.key(siteId), JSON.stringify(health), 'PX', Math.ceil(ttl)).then(() => undefined),
      this.commandTimeoutMs,
      undefined,
    );
  }
}
