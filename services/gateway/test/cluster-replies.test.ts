/**
 * Every reply reaches the command that asked for it while a Redis Cluster master fails over. The gateway's
 * request path issues an API-key cache GET, an address GET and a rate-limit script in the same tick; with
 * ioredis's auto-pipelining on a cluster, a failover once handed a GET another key's value (another site's
 * principal) and a GET the script's reply (a CI run's lookup answered 500). This runs that mix through the
 * gateway's own Redis client options across a master killed -9 and checks each GET's answer against its key.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { createCommandRedis, type RedisClient } from '@kasa/redis';
import { startPrivateRedisCluster, type ClusterNode, type PrivateRedisCluster } from '@kasa/testkit';

const KEYS = 60;
const LANES = 12;
/** Traffic runs this long before the kill and this long after it (the promotion takes about 4 s). */
const BEFORE_MS = 1_500;
const AFTER_MS = 9_000;

let cluster: PrivateRedisCluster;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startPrivateRedisCluster({ replicas: true, nodeTimeoutMs: 2_000, requireFullCoverage: false });
  // As services/gateway/src/gateway-deps.ts asks for its client.
  redis = createCommandRedis({ redisUrl: 'redis://127.0.0.1', redisClusterNodes: cluster.nodes }, () => undefined, {
    autoPipelining: true,
  });
  await new Promise((resolve) => redis.once('ready', resolve));
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
}, 60_000);

const valueOf = (i: number) => JSON.stringify({ site: `site-${i}`, pad: 'x'.repeat(24) });

describe('the request-path Redis client on a cluster', () => {
  it('gives every GET its own key’s value, or an error, while a master is killed and its replica promoted', async () => {
    for (let i = 0; i < KEYS; i += 1) await redis.set(`replies:auth:${i}`, valueOf(i));
    const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'replies:rl', points: 2 ** 31 - 1, duration: 60 });
    const tally = { right: 0, failed: 0, wrong: [] as string[] };
    let stop = false;
    const lane = async (index: number) => {
      for (let n = 0; !stop && n < 200_000; n += 1) {
        const i = (index * 7 + n) % KEYS;
        const [, , answer] = await Promise.all([
          limiter.consume(`k${i}`).catch(() => undefined),
          redis.get(`replies:address:${index}`).catch(() => undefined),
          redis.get(`replies:auth:${i}`).then(
            (value) => ({ value }),
            () => null,
          ),
        ]);
        if (answer === null) tally.failed += 1;
        else if (answer.value === valueOf(i)) tally.right += 1;
        else tally.wrong.push(`key ${i} answered ${String(answer.value).slice(0, 40)}`);
      }
    };
    const lanes = Array.from({ length: LANES }, (_, index) => lane(index));
    await new Promise((resolve) => setTimeout(resolve, BEFORE_MS));
    await cluster.kill(cluster.nodes[1] as ClusterNode);
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
    stop = true;
    await Promise.all(lanes);
    console.log(`cluster replies: ${tally.right} right, ${tally.failed} failed fast, ${tally.wrong.length} wrong`);

    expect(tally.wrong.slice(0, 5)).toEqual([]);
    // The failover was really crossed: commands for the killed master's slots failed, the others were answered.
    expect(tally.failed).toBeGreaterThan(0);
    expect(tally.right).toBeGreaterThan(1_000);
  }, 90_000);
});
