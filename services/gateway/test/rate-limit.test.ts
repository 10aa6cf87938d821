import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let second: ChildProcess | null = null;
let secondUrl = '';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** A second gateway as its own OS process, sharing only Redis and the ledger with the first. */
async function startSecondGateway(): Promise<void> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    NODE_ENV: 'test',
    GATEWAY_PORT: '0',
    LEDGER_URL: h.ledger.url,
    REDIS_URL: h.env.config.redisUrl,
    REDIS_PREFIX: h.env.redisPrefix,
    INTERNAL_TOKEN: h.env.config.internalToken,
    OPS_BOOTSTRAP_TOKEN: h.env.config.opsBootstrapToken,
    CURSOR_SIGNING_KEY: h.env.config.cursorSigningKey,
    LOG_LEVEL: 'info',
  };
  second = spawn(process.execPath, ['--import', 'tsx', 'services/gateway/src/main.ts'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: second.stdout! });
  secondUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('second gateway did not start in 30 s')), 30_000);
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; port?: number };
        if (entry.message === 'gateway listening') {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${entry.port}`);
        }
      } catch {
        // not a log line
      }
    });
  });
}

beforeAll(async () => {
  h = await startHarness();
  await startSecondGateway();
}, 60_000);
afterAll(async () => {
  if (second && second.exitCode === null) {
    second.kill('SIGTERM');
    await new Promise((resolve) => second!.once('exit', resolve));
  }
  await h?.stop();
});

describe('per-key rate limit', () => {
  it('answers the 61st request in a minute with 429 rate_limited and Retry-After', async () => {
    const site = await h.createSite();
    const api = partner(h.gateway.url, site);
    for (let i = 1; i <= 60; i += 1) {
      const res = await api.get('/api/v1/external/intents?limit=1');
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"default";r=${60 - i};t=\\d+$`));
    }
    const limited = await api.get('/api/v1/external/intents?limit=1');
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
  });

  it('counts requests across two gateway processes sharing Redis', async () => {
    const site = await h.createSite();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      const base = i % 2 === 0 ? h.gateway.url : secondUrl;
      const res = await request(base).get('/api/v1/external/intents?limit=1').set('authorization', `Bearer ${site.apiKey}`);
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    // The other process agrees: the key is out of budget everywhere.
    const viaFirst = await request(h.gateway.url).get('/api/v1/external/intents').set('authorization', `Bearer ${site.apiKey}`);
    expect(viaFirst.status).toBe(429);
  });

  it('keeps separate budgets per key and honours a site-specific limit', async () => {
    const small = await h.createSite({ rateLimitPerMinute: 3 });
    const other = await h.createSite();
    const api = partner(h.gateway.url, small);
    for (let i = 0; i < 3; i += 1) expect((await api.get('/api/v1/external/intents')).status).toBe(200);
    const limited = await api.get('/api/v1/external/intents');
    expect(limited.status).toBe(429);
    expect(limited.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    expect((await partner(h.gateway.url, other).get('/api/v1/external/intents')).status).toBe(200);
  });

  it('counts refused writes too, and a rate-limited POST creates nothing', async () => {
    const site = await h.createSite({ rateLimitPerMinute: 2 });
    const api = partner(h.gateway.url, site);
    expect((await api.createDeposit({ amount: '1' })).status).toBe(400);
    expect((await api.createDeposit()).status).toBe(201);
    const limited = await api.createDeposit();
    expect(limited.status).toBe(429);
    expect(await h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } })).toBe(1);
  });
});
