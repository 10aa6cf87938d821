/**
 * The drill's Redis Cluster: testkit's, three masters each with a replica, `cluster-node-timeout` as given and
 * `cluster-require-full-coverage no` (docs/scaling.md, Redis Cluster failover), so that a master killed -9 is
 * replaced by its replica, promoted by the cluster itself.
 */
import { startPrivateRedisCluster, type ClusterNode, type PrivateRedisCluster } from '@kasa/testkit';
import { until } from './wait.js';

export interface DrillRedisCluster {
  cluster: PrivateRedisCluster;
  /** The master that serves `key`'s slot now, as a live node sees it. */
  masterOf(key: string): Promise<ClusterNode>;
  /** SIGKILLs `node`; resolves once it has exited. */
  kill(node: ClusterNode): Promise<void>;
  /** Resolves once a live node other than `dead` serves `key`'s slot, as every live node sees it. */
  waitFailover(key: string, dead: ClusterNode, timeoutMs: number): Promise<ClusterNode>;
  stop(): Promise<void>;
}

export async function startDrillRedisCluster(nodeTimeoutMs: number): Promise<DrillRedisCluster> {
  const cluster = await startPrivateRedisCluster({ replicas: true, nodeTimeoutMs, requireFullCoverage: false });
  const killed = new Set<number>();
  const live = () => [...cluster.nodes, ...cluster.replicas].filter((node) => !killed.has(node.port));
  const masterSeenBy = async (asked: ClusterNode, key: string) => {
    const slot = Number(await cluster.call(asked, 'CLUSTER', 'KEYSLOT', key));
    const range = (await cluster.slots(asked)).find(({ from, to }) => slot >= from && slot <= to);
    if (!range) throw new Error(`redis ${asked.port} knows no master of slot ${slot}`);
    return range.master;
  };
  return {
    cluster,
    async masterOf(key) {
      const [asked] = live();
      if (!asked) throw new Error('no live redis node');
      return masterSeenBy(asked, key);
    },
    async kill(node) {
      killed.add(node.port);
      await cluster.kill(node);
    },
    async waitFailover(key, dead, timeoutMs) {
      let master = dead;
      await until(`a replica takes over ${key}'s slot from ${dead.port}`, timeoutMs, async () => {
        const seen = await Promise.all(live().map((node) => masterSeenBy(node, key)));
        master = seen[0] ?? dead;
        return seen.every((node) => node.port === master.port && node.port !== dead.port);
      });
      return master;
    },
    stop: () => cluster.stop(),
  };
}
