export { totpCode } from './totp.js';
export { startPrivateRedis, type PrivateRedis } from './private-redis.js';
export {
  startPrivateRedisCluster,
  type ClusterNode,
  type PrivateRedisCluster,
  type PrivateRedisClusterOptions,
  type SlotRange,
} from './private-redis-cluster.js';
export { startPrivatePostgres, type PrivatePostgres } from './private-postgres.js';
export { startStreamingReplica, type StreamingReplica, type StreamingReplicaOptions } from './streaming-replica.js';
export { startSynchronousStandby, killPostgres, type SynchronousStandby, type SynchronousStandbyOptions } from './synchronous-standby.js';
export { startPgBouncer, PGBOUNCER_PATH, type PgBouncer, type PgBouncerOptions } from './pgbouncer.js';
/**
 * Test harness: every test file gets its own PostgreSQL database and Redis key prefix, so files run in
 * parallel against the real services and leave nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { loadConfig, type KasaConfig } from '@kasa/config';
import { dropDatabase, ensureDatabase, migrate } from '@kasa/db';

// npm test (scripts/test.mjs) sets these when it uses PostgreSQL or Redis elsewhere than the defaults.
export const TEST_POSTGRES_BASE = process.env.TEST_POSTGRES_BASE || 'postgresql://postgres@127.0.0.1:5432';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

export interface TestEnvironment {
  config: KasaConfig;
  databaseUrl: string;
  redisPrefix: string;
  /** Drops the database and deletes every Redis key under the prefix. */
  cleanup(): Promise<void>;
}

/** Creates and migrates a fresh database and picks a fresh Redis prefix; `overrides` are extra env vars. */
export async function createTestEnvironment(overrides: Record<string, string> = {}): Promise<TestEnvironment> {
  const id = randomBytes(6).toString('hex');
  // A test with a PostgreSQL server of its own names it in DATABASE_URL; the database is made and migrated there.
  const databaseUrl = overrides.DATABASE_URL ?? `${TEST_POSTGRES_BASE}/kasa_t_${id}`;
  const redisPrefix = `kasa_t_${id}`;
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    INTERNAL_TOKEN: `internal-${id}-token`,
    OPS_BOOTSTRAP_TOKEN: `ops-bootstrap-${id}-token`,
    CURSOR_SIGNING_KEY: `cursor-${id}-signing-key`,
    LOG_LEVEL: 'error',
    ...overrides,
  });
  return {
    config,
    databaseUrl,
    redisPrefix,
    async cleanup() {
      // A test on a Redis Cluster of its own (REDIS_CLUSTER_NODES) leaves its keys there, not on the shared Redis.
      await deleteRedisPrefix(redisPrefix, config.redisClusterNodes ?? TEST_REDIS_URL);
      await dropDatabase(databaseUrl);
    },
  };
}

/** Deletes every key of one Redis that starts with `prefix` (SCAN, never KEYS), one DEL per key batch of a slot. */
async function deleteOnNode(redis: Redis, prefix: string, perKey: boolean): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length === 0) continue;
    // A cluster node holds many slots: a DEL of several keys would be CROSSSLOT there, so one DEL per key (pipelined).
    if (perKey) await keys.reduce((pipeline, key) => pipeline.del(key), redis.pipeline()).exec();
    else await redis.del(...keys);
  } while (cursor !== '0');
}

/**
 * Deletes every key that starts with `prefix` from the Redis at `target` (a URL), or from every master of the
 * Redis Cluster whose seed nodes `target` lists: SCAN walks one node only, so each master is scanned.
 */
export async function deleteRedisPrefix(
  prefix: string,
  target: string | ReadonlyArray<{ host: string; port: number }> = TEST_REDIS_URL,
): Promise<void> {
  if (typeof target === 'string') {
    const redis = new Redis(target, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    try {
      await deleteOnNode(redis, prefix, false);
    } finally {
      redis.disconnect();
    }
    return;
  }
  const cluster = new Cluster(
    target.map(({ host, port }) => ({ host, port })),
    { lazyConnect: true, redisOptions: { maxRetriesPerRequest: 1 } },
  );
  await cluster.connect();
  try {
    await Promise.all(cluster.nodes('master').map((node) => deleteOnNode(node, prefix, true)));
  } finally {
    cluster.disconnect();
  }
}

export { launchChromium, CHROMIUM_PATH } from './browser.js';
export { httpJson, expectStatus, type HttpResult } from './http-json.js';
export { makeTrIban } from './iban.js';
export { eventually } from './eventually.js';
export { seededRandom, type Random } from './seeded-random.js';
export {
  bankTransferBody,
  Scenario,
  type ScenarioApiKey,
  type ScenarioDeposit,
  type ScenarioOperator,
  type ScenarioOptions,
  type ScenarioSite,
  type ScenarioWithdrawal,
} from './scenario.js';
export { productionEnvironment, type ProductionEnvironment } from './production-env.js';
