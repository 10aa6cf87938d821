import { isClusterClient, type RedisClient } from './redis-client.js';

/**
 * Error replies that mean Kasa is set up wrongly for this Redis, not that Redis is down: a plain client
 * pointed at a cluster node (MOVED, ASK, CROSSSLOT), wrong or missing credentials (NOAUTH, WRONGPASS), an ACL
 * that forbids Kasa's keys or commands (NOPERM), a replica instead of the master (READONLY). Waiting does not
 * fix them, so they fail readiness even where Redis is otherwise optional. A cluster client never surfaces a
 * raw MOVED or ASK (it follows them; a topology still moving ends in "Too many Cluster redirections", which
 * is an outage, not a mistake).
 */
const MISCONFIGURATION_REPLIES = ['MOVED', 'ASK', 'CROSSSLOT', 'NOAUTH', 'WRONGPASS', 'NOPERM', 'READONLY'];

/** The error a plain client gets when REDIS_URL names one node of a Redis Cluster. */
export class RedisClusterModeError extends Error {
  constructor() {
    super('REDIS_URL points at a Redis Cluster node; set REDIS_CLUSTER_NODES so Kasa uses a cluster client');
    this.name = 'RedisClusterModeError';
  }
}

/**
 * What a Redis failure means: `misconfigured` (an error reply only a change of configuration fixes, see
 * {@link MISCONFIGURATION_REPLIES}) or `unavailable` (unreachable, timed out, not ready, CLUSTERDOWN,
 * LOADING, TRYAGAIN: it passes when Redis is back).
 */
export function redisFailureKind(error: unknown): 'misconfigured' | 'unavailable' {
  if (error instanceof RedisClusterModeError) return 'misconfigured';
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(' ', 1)[0] ?? '';
  return MISCONFIGURATION_REPLIES.includes(first) ? 'misconfigured' : 'unavailable';
}

/** `cluster_enabled:1` in INFO's cluster section. */
function saysClusterEnabled(info: string): boolean {
  return /^cluster_enabled:1\s*$/m.test(info);
}

/**
 * A readiness probe of `client` that a misconfiguration cannot pass: it reads each of `keys` (GET, so on a
 * cluster each goes to its slot's master; PING is not keyed, so a plain client pointed at a cluster node
 * would pass it), and a plain client also checks that its server is not a cluster node (INFO cluster),
 * which a key that happens to live on that node would not show. Throws the failure; classify it with
 * {@link redisFailureKind}.
 */
export function redisReadinessProbe(client: RedisClient, keys: readonly string[]): () => Promise<void> {
  return async () => {
    if (!isClusterClient(client)) {
      let info: string | null = null;
      try {
        info = await client.info('cluster');
      } catch (error) {
        // An ACL may forbid INFO; the keyed reads below still check what Kasa needs.
        if (!/^NOPERM\b/.test(error instanceof Error ? error.message : '')) throw error;
      }
      if (info !== null && saysClusterEnabled(info)) throw new RedisClusterModeError();
    }
    await Promise.all(keys.map((key) => client.get(key)));
  };
}
