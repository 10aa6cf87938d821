import { isClusterClient, type RedisClient } from './redis-client.js';

/**
 * Publishes `message` on `channel` so that, once this resolves, every subscriber already has it on its way, one Redis
 * or a Redis Cluster alike. One Redis hands a message to its subscribers' connections before it answers PUBLISH; a
 * cluster node does so only for its own subscribers and tells the other nodes over the cluster bus afterwards, so a
 * subscriber on another node could still act on what the message revokes after the publisher was answered. Here each
 * node the client knows (masters and replicas) is sent the PUBLISH itself: a subscriber gets it once from its own node
 * and again over the bus, and whatever it tells must be safe to hear twice. Resolves with how many nodes took it;
 * rejects only when none did (a node that is down has no subscribers left to tell).
 */
export async function publishToSubscribers(redis: RedisClient, channel: string, message: string): Promise<number> {
  // One Redis, or a cluster client that knows no node yet (it finds one itself).
  const nodes = isClusterClient(redis) ? redis.nodes('all') : [];
  if (nodes.length === 0) {
    await redis.publish(channel, message);
    return 1;
  }
  const results = await Promise.allSettled(nodes.map((node) => node.publish(channel, message)));
  const taken = results.filter((result) => result.status === 'fulfilled').length;
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (taken === 0 && failed) throw failed.reason;
  return taken;
}
