/** Redis connections for Kasa: one Redis or a Redis Cluster, fail-fast request paths, readiness that tells an outage from a mistake. */
export {
  CLUSTER_SLOTS_REFRESH_MS,
  createCommandRedis,
  createRedisClient,
  FAIL_FAST_CLUSTER_OPTIONS,
  isClusterClient,
  REDIS_COMMAND_TIMEOUT_MS,
  type CommandRedisOptions,
  type RedisClient,
  type RedisTarget,
} from './redis-client.js';
export { redisFailureKind, redisReadinessProbe, RedisClusterModeError } from './redis-readiness.js';
export { publishToSubscribers } from './publish.js';
export { subscribeChannel, SUBSCRIBER_PING_MS, type ChannelListener, type ChannelSubscription } from './channel-subscriber.js';
