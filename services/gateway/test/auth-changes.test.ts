import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { authCacheKey, REVOKED } from '@kasa/contracts';
import { TEST_REDIS_URL } from '@kasa/testkit';
import { startGateway, type GatewayService } from '../src/index.js';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let second: GatewayService;
let redis: Redis;

beforeAll(async () => {
  h = await startHarness();
  // A second gateway replica on the same Redis and ledger, with its own connections and its own memory.
  second = await startGateway({ ...h.env.config, ledgerUrl: h.ledger.url }, 0);
  redis = new Redis(TEST_REDIS_URL);
  await Promise.all([h.gateway, second].map((gateway) => until(() => gateway.deps.authChanges.subscribed)));
});
afterAll(async () => {
  await second?.stop();
  await h?.stop();
  redis?.disconnect();
});

const listPath = '/api/v1/external/intents?limit=1';
const hashOf = (site: TestSite) => createHash('sha256').update(site.apiKey).digest('hex');

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Two requests on each gateway: the first fills the shared cache, the second puts the key in the gateway's memory. */
async function knownOnBoth(site: TestSite): Promise<void> {
  for (const gateway of [h.gateway, second]) {
    for (let i = 0; i < 3 && !gateway.deps.knownKeys.get(hashOf(site)); i += 1) {
      expect((await partner(gateway.url, site).get(listPath)).status).toBe(200);
    }
    expect(gateway.deps.knownKeys.get(hashOf(site))).toMatchObject({ siteId: site.siteId });
  }
}

/** The commands Redis ran while `work` ran, as their arguments, for this test's keys only. */
async function commandsDuring(work: () => Promise<void>): Promise<string[][]> {
  const monitor = await redis.monitor();
  // Lines still in the socket when the monitor is closed are read as replies to no command (ioredis emits "Command
  // queue state error"): other work on this Redis (the ledger's repeatable jobs) goes on, and they say nothing here.
  monitor.on('error', () => undefined);
  const seen: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args.some((arg) => arg.includes(h.env.redisPrefix))) seen.push(args);
  });
  try {
    await work();
    // MONITOR's stream trails the replies a little; a ping through Redis after the work marks its end.
    await redis.ping();
    await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    monitor.disconnect();
  }
  return seen;
}

describe('API keys kept in the gateway memory', () => {
  it('serves a known key with one Redis command (the count): no read of the auth cache or the failed-attempt counter', async () => {
    const site = await h.createSite();
    await knownOnBoth(site);
    const commands = await commandsDuring(async () => {
      for (let i = 0; i < 3; i += 1) expect((await partner(h.gateway.url, site).get(listPath)).status).toBe(200);
    });
    expect(commands.filter((args) => args.some((arg) => arg.includes(':auth:') || arg.includes(':rl-badkey:')))).toEqual([]);
    // The request counter's script still runs once per request (what the monitor sees, so the check can fail).
    const counts = commands.filter((args) => args[0]?.toLowerCase() === 'evalsha' && args[3]?.startsWith(`${h.env.redisPrefix}:rl:`));
    expect(counts).toHaveLength(3);
  });

  it('refuses a revoked key from the next request on, on both gateways, though both held it in memory', async () => {
    const site = await h.createSite();
    await knownOnBoth(site);
    expect((await h.ops('DELETE', `/ops/v1/api-keys/${site.apiKeyId}`)).status).toBe(200);
    for (const gateway of [h.gateway, second]) {
      const res = await partner(gateway.url, site).get(listPath);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('unauthorized');
    }
  });

  it('applies a new rate limit from the next request on, on both gateways', async () => {
    const site = await h.createSite({ rateLimitPerMinute: 1000 });
    await knownOnBoth(site);
    expect((await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { rateLimitPerMinute: 777 })).status).toBe(200);
    for (const gateway of [h.gateway, second]) {
      const res = await partner(gateway.url, site).get(listPath);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=777;w=60');
    }
  });

  it('trusts nothing in memory while its subscription is down, and starts empty when it is back', async () => {
    const site = await h.createSite();
    await knownOnBoth(site);
    const clients = await redis.client('LIST');
    const name = `${h.env.redisPrefix}:gateway-auth-changes`;
    const ids = String(clients)
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1]);
    // One subscriber per gateway.
    expect(ids).toHaveLength(2);
    for (const id of ids) await redis.client('KILL', 'ID', String(id));
    // The ledger's revocation is "missed": the shared entry changes without a message to hear.
    await redis.set(authCacheKey(h.env.redisPrefix, hashOf(site)), REVOKED, 'EX', 60);
    for (const gateway of [h.gateway, second]) {
      await until(() => !gateway.deps.authChanges.subscribed || gateway.deps.knownKeys.size === 0);
      expect(gateway.deps.knownKeys.get(hashOf(site))).toBeNull();
    }
    await Promise.all([h.gateway, second].map((gateway) => until(() => gateway.deps.authChanges.subscribed)));
    for (const gateway of [h.gateway, second]) {
      expect(gateway.deps.knownKeys.isTrusted).toBe(true);
      expect(gateway.deps.knownKeys.get(hashOf(site))).toBeNull();
      expect((await partner(gateway.url, site).get(listPath)).status).toBe(401);
    }
    // Still hearing the ledger after the reconnect: another key, known again, is revoked at once.
    const other = await h.createSite();
    await knownOnBoth(other);
    expect((await h.ops('DELETE', `/ops/v1/api-keys/${other.apiKeyId}`)).status).toBe(200);
    for (const gateway of [h.gateway, second]) expect((await partner(gateway.url, other).get(listPath)).status).toBe(401);
  });
});
