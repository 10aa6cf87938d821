export { startPrivateRedis, type PrivateRedis } from './private-redis.js';
export { startPrivatePostgres, type PrivatePostgres } from './private-postgres.js';
/**
 * Test harness: every test file gets its own PostgreSQL database and Redis key prefix, so files run in
 * parallel against the real services and leave nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig, type KasaConfig } from '@kasa/config';
import { dropDatabase, ensureDatabase, migrate } from '@kasa/db';

export const TEST_POSTGRES_BASE = 'postgresql://postgres@127.0.0.1:5432';
export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

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
      await deleteRedisPrefix(redisPrefix);
      await dropDatabase(databaseUrl);
    },
  };
}

/** Deletes every key that starts with `prefix` (SCAN, never KEYS). */
export async function deleteRedisPrefix(prefix: string, redisUrl = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

export { launchChromium, CHROMIUM_PATH } from './browser.js';
export { httpJson, expectStatus, type HttpResult } from './http-json.js';
export { makeTrIban } from './iban.js';
export { eventually } from './eventually.js';
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
