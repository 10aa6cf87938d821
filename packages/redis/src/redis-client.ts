import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A connection to one Redis or to a Redis Cluster: the commands Kasa uses are the same on both. */
export type RedisClient = Redis | Cluster;

/** Where Kasa's Redis is: the two fields of `KasaConfig` that say it. */
export interface RedisTarget {
  /** One Redis; with cluster nodes, only its username, password and `rediss:` (TLS) are used. */
  redisUrl: string;
  /** A Redis Cluster's seed nodes (`REDIS_CLUSTER_NODES`), or null for the one Redis of `redisUrl`. */
  redisClusterNodes: ReadonlyArray<{ host: string; port: number }> | null;
}

/** What every connection of one kind gets, on one Redis and on each node of a cluster alike. */
type NodeOptions = Omit<RedisOptions, 'host' | 'port' | 'path' | 'sentinels' | 'retryStrategy' | 'enableOfflineQueue' | 'readOnly'>;

/** REDIS_URL's credentials and TLS, which every node of a cluster is given (the cluster has no URL of its own). */
export function credentialsOf(redisUrl: string): NodeOptions {
  const url = new URL(redisUrl);
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * One Redis (`new Redis(redisUrl)`) or, with cluster nodes, `new Cluster(nodes)`, which follows the
 * cluster's slot map (MOVED, ASK) and talks to the master of each key's slot. `node` applies to every
 * connection (the one Redis, or each cluster node); `cluster` to the cluster client itself.
 */
export function createRedisClient(
  target: RedisTarget,
  node: NodeOptions & { enableOfflineQueue?: boolean },
  cluster: Omit<ClusterOptions, 'redisOptions'> = {},
): RedisClient {
  if (!target.redisClusterNodes) return new Redis(target.redisUrl, node);
  const { enableOfflineQueue, ...perNode } = node;
  const redisOptions = { ...credentialsOf(target.redisUrl), ...perNode };
  return new Cluster(
    target.redisClusterNodes.map(({ host, port }) => ({ host, port })),
    {
      ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
      // Behind TLS a certificate names the host, not its address: connect by the names given (ioredis's advice).
      ...(redisOptions.tls
        ? { dnsLookup: (address: string, callback: (error: null, address: string) => void) => callback(null, address) }
        : {}),
      ...cluster,
      redisOptions,
    },
  );
}

/** Whether `client` is a cluster client (it follows MOVED) rather than a connection to one Redis. */
export function isClusterClient(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** How long a request-path Redis command may take before the request is answered 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * How often a request-path cluster client reloads the slot map on its own (CLUSTER SLOTS of one node), besides
 * the reload after each `MOVED`: a promoted replica is found within this even by a client that sends nothing
 * to the failed master's slots.
 */
export const CLUSTER_SLOTS_REFRESH_MS = 2_000;

/**
 * The cluster client's side of failing fast while a master is down (docs/scaling.md, "Failover"). ioredis's
 * defaults retry a command whose node connection closed every 100 ms (`retryDelayOnFailover`), and one answered
 * `CLUSTERDOWN` likewise (`retryDelayOnClusterDown`), until 16 redirections or the command timeout: each Redis
 * step of a request then waited out the whole second, and a request with two steps two seconds, for as long as
 * the failover lasted. With 0 the command fails at once and the request goes on without Redis (the gateway's
 * fallbacks) or gets its 503; the slot map is still reloaded after each `MOVED` and every
 * {@link CLUSTER_SLOTS_REFRESH_MS}, so the promoted replica is used as soon as the cluster names it.
 */
export const FAIL_FAST_CLUSTER_OPTIONS = {
  retryDelayOnFailover: 0,
  retryDelayOnClusterDown: 0,
  slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
  slotsRefreshTimeout: REDIS_COMMAND_TIMEOUT_MS,
} as const satisfies Omit<ClusterOptions, 'redisOptions'>;

/** Options of {@link createCommandRedis} beyond the fail-fast ones it always sets. */
export interface CommandRedisOptions {
  /**
   * Sends commands issued in the same tick in one round trip, on one Redis only: a cluster client always sends
   * each command by itself ({@link createCommandRedis}).
   */
  autoPipelining?: boolean;
}

/**
 * A Redis connection for request paths (auth cache, rate limits, idempotency, login throttling): when Redis
 * is unreachable a command fails at once or after {@link REDIS_COMMAND_TIMEOUT_MS}, so the request goes on
 * without Redis (the gateway's fallbacks) or gets a fast 503 (operator login) instead of waiting for a
 * reconnect. Commands queue only until the first connection is ready
 * (start-up), never during an outage. On a cluster the same holds for every node, the cluster client
 * itself refuses commands while it has no slot map, and a command for the slots of a failed master fails at
 * once instead of being retried until its replica is promoted ({@link FAIL_FAST_CLUSTER_OPTIONS}). `onError`
 * receives connection errors, the cluster's and each node's; a reconnect loop repeats them, so log them with
 * @kasa/logger's `repeatLimited` (as JSON: without a listener ioredis prints raw lines to stderr).
 *
 * A cluster client never auto-pipelines, whatever `options` ask: while a master fails over, ioredis 6.0's
 * cluster pipelines (retried as a whole after a node error) hand some commands the reply of another command of
 * the same batch, measured as one key's GET answered with another key's value and a rate-limit script's reply
 * given to a GET (services/gateway/test/cluster-replies.test.ts). Each command sent by itself is still pipelined on
 * the node's connection (nothing waits for the previous reply); only the batching into one write is lost.
 */
export function createCommandRedis(target: RedisTarget, onError: (error: Error) => void, options: CommandRedisOptions = {}): RedisClient {
  const failFast = { maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, connectTimeout: 2_000 };
  const client = target.redisClusterNodes
    ? createRedisClient(target, { ...failFast, enableOfflineQueue: true }, { ...FAIL_FAST_CLUSTER_OPTIONS, enableAutoPipelining: false })
    : createRedisClient(target, { ...failFast, enableAutoPipelining: options.autoPipelining ?? false, enableOfflineQueue: true });
  client.once('ready', () => {
    client.options.enableOfflineQueue = false;
  });
  client.on('error', onError);
  if (isClusterClient(client)) client.on('node error', onError);
  return client;
}
