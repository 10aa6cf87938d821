/**
 * The environment a Kasa container gets (NODE_ENV=production, every required variable, fresh secrets, none
 * published) over a fresh database name and Redis prefix, for tests and benchmarks that start the compiled
 * services exactly as their containers do.
 */
import { randomBytes } from 'node:crypto';
import { dropDatabase } from '@kasa/db';
import { deleteRedisPrefix, TEST_POSTGRES_BASE, TEST_REDIS_URL } from './index.js';

export interface ProductionEnvironment {
  /** What a container is given; `PATH` only besides Kasa's own variables. */
  env: Record<string, string>;
  databaseUrl: string;
  redisPrefix: string;
  cleanup(): Promise<void>;
}

/** A production environment over a fresh database name and Redis prefix; fresh secrets (none published). */
export function productionEnvironment(extra: Record<string, string> = {}, name = 'kasa_rt'): ProductionEnvironment {
  const id = randomBytes(6).toString('hex');
  const databaseUrl = `${TEST_POSTGRES_BASE}/${name}_${id}`;
  const redisPrefix = `${name}_${id}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: redisPrefix,
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    OPS_BOOTSTRAP_TOKEN: randomBytes(24).toString('hex'),
    CURSOR_SIGNING_KEY: randomBytes(24).toString('hex'),
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    STATEMENT_SIGNING_KEY: randomBytes(32).toString('base64'),
    HISTORY_SEAL_KEY: randomBytes(32).toString('base64'),
    GATEWAY_PORT: '0',
    LEDGER_PORT: '0',
    WORKER_PORT: '0',
    CONSOLE_PORT: '0',
    ...extra,
  };
  return {
    env,
    databaseUrl,
    redisPrefix,
    async cleanup() {
      await deleteRedisPrefix(redisPrefix);
      await dropDatabase(databaseUrl);
    },
  };
}
