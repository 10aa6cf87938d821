/**
 * The Redis readiness probe against real servers: a Redis that answers, one that is down, one whose password
 * Kasa does not have; and how each failure is classified (an outage or a misconfiguration).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '@kasa/testkit';
import { createCommandRedis, redisFailureKind, redisReadinessProbe, RedisClusterModeError, type RedisClient } from '../src/index.js';

let redis: PrivateRedis;
const clients: RedisClient[] = [];
const commandClient = (url: string) => {
  const client = createCommandRedis({ redisUrl: url, redisClusterNodes: null }, () => undefined);
  clients.push(client);
  return client;
};
beforeAll(async () => {
  redis = await startPrivateRedis();
});
afterAll(async () => {
  // The server first: its sockets close at once, so no client waits out ioredis's disconnect timer.
  await redis?.stop();
  for (const client of clients) client.disconnect();
});

async function failureOf(probe: () => Promise<void>): Promise<unknown> {
  return probe().then(
    () => null,
    (error: unknown) => error,
  );
}

describe('redisFailureKind', () => {
  it.each([
    ['MOVED 9263 127.0.0.1:7001', 'misconfigured'],
    ['ASK 9263 127.0.0.1:7001', 'misconfigured'],
    ["CROSSSLOT Keys in request don't hash to the same slot", 'misconfigured'],
    ['NOAUTH Authentication required.', 'misconfigured'],
    ['WRONGPASS invalid username-password pair or user is disabled.', 'misconfigured'],
    ['NOPERM this user has no permissions to access one of the keys used as arguments', 'misconfigured'],
    ["READONLY You can't write against a read only replica.", 'misconfigured'],
    ['CLUSTERDOWN The cluster is down', 'unavailable'],
    ['LOADING Redis is loading the dataset in memory', 'unavailable'],
    ['connect ECONNREFUSED 127.0.0.1:6379', 'unavailable'],
    ['Command timed out', 'unavailable'],
    ["Stream isn't writeable and enableOfflineQueue options is false", 'unavailable'],
    ["Cluster isn't ready and enableOfflineQueue options is false", 'unavailable'],
    ['Too many Cluster redirections. Last error: MOVED 9263 127.0.0.1:7001', 'unavailable'],
  ])('%j is %s', (message, kind) => {
    expect(redisFailureKind(new Error(message))).toBe(kind);
  });

  it('calls a plain client on a cluster node misconfigured', () => {
    expect(redisFailureKind(new RedisClusterModeError())).toBe('misconfigured');
  });
});

describe('redisReadinessProbe', () => {
  it('passes on a Redis that answers, reading its keys', async () => {
    const probe = redisReadinessProbe(commandClient(redis.url), ['kasa_probe:readyz', 'kasa_probe:{bull}:readyz']);
    await expect(probe()).resolves.toBeUndefined();
  });

  it('fails as unavailable, fast, on a Redis that is down', async () => {
    const client = commandClient(redis.url);
    const probe = redisReadinessProbe(client, ['kasa_probe:readyz']);
    await probe();
    await redis.kill();
    try {
      const started = Date.now();
      const error = await failureOf(probe);
      expect(error).toBeInstanceOf(Error);
      expect(redisFailureKind(error)).toBe('unavailable');
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await redis.restart();
    }
  });

  it('fails as misconfigured when Redis wants a password Kasa does not send', async () => {
    const admin = new Redis(redis.url);
    await admin.config('SET', 'requirepass', 'a-password-kasa-lacks');
    admin.disconnect();
    try {
      const error = await failureOf(redisReadinessProbe(commandClient(redis.url), ['kasa_probe:readyz']));
      expect((error as Error).message).toMatch(/^NOAUTH/);
      expect(redisFailureKind(error)).toBe('misconfigured');
    } finally {
      // Back to a Redis without a password: a fresh, empty server on the same port.
      await redis.kill();
      await redis.restart();
    }
  });
});
