/** Redis connections for request paths: fail fast, log as JSON. */
import { Redis, type Cluster, type RedisOptions } from 'ioredis';

/** A connection to one Redis or to a Redis Cluster: the commands Kasa uses are the same on both. */
export type RedisClient = Redis | Cluster;

/** How long a request-path Redis command may take before the request is answered 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * A Redis connection for request paths (auth cache, rate limits, idempotency, login throttling): when Redis
 * is unreachable a command fails at once or after {@link REDIS_COMMAND_TIMEOUT_MS}, so the request gets a
 * fast 503 instead of waiting for a reconnect. Commands queue only until the first connection is ready
 * (start-up), never during an outage. `onError` receives connection errors (log them as JSON; without a
 * listener ioredis prints raw lines to stderr).
 */
export function createCommandRedis(redisUrl: string, onError: (error: Error) => void, options: RedisOptions = {}): Redis {
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    enableOfflineQueue: true,
    ...options,
  });
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  redis.on('error', onError);
  return redis;
}
