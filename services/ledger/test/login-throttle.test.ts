import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { httpJson, startPrivateRedis, type HttpResult, type PrivateRedis } from '@kasa/testkit';
import { eventually, sleep, startLedgerHarness, type LedgerHarness } from './harness.js';

const WRONG = 'not the password';
const THROTTLED = /^Too many login attempts; try again in \d+ s\.$/;

/** `POST /ops/v1/login` straight from this process: the ledger sees the socket address 127.0.0.1. */
const login = (h: LedgerHarness, email: string, password: string, headers: Record<string, string> = {}) =>
  httpJson(`${h.ledger.url}/ops/v1/login`, 'POST', headers, { email, password });

/** The headers the console adds: the browser's address, vouched for with the internal token. */
const viaConsole = (h: LedgerHarness, address: string) => ({
  'x-internal-token': h.env.config.internalToken,
  'x-kasa-client-address': address,
});

function tally(results: HttpResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

function expectThrottled(result: HttpResult): void {
  expect(result.status).toBe(429);
  expect(result.headers.get('content-type')).toContain('application/problem+json');
  expect(result.body).toMatchObject({ status: 429, error: 'rate_limited' });
  expect(result.body.detail).toMatch(THROTTLED);
  expect(Number(result.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('a burst of concurrent logins for one operator from one address', () => {
  let h: LedgerHarness;
  beforeAll(async () => {
    // The window outlasts the burst even on a loaded machine: a window that ends mid-burst admits a second allowance.
    h = await startLedgerHarness({ OPS_LOGIN_WINDOW_SECONDS: '10', OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS: '5' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('checks at most the allowance, refuses the rest with 429, and never locks the operator out', async () => {
    const allowance = h.env.config.opsLoginAttemptsPerAccountAddress;
    const target = await h.createOperator('REVIEWER');
    const right = Math.floor(Math.random() * 200);
    const passwords = Array.from({ length: 200 }, (_, i) => (i === right ? target.password : `${WRONG} ${i}`));

    const results = await Promise.all(passwords.map((password) => login(h, target.email, password)));

    const counts = tally(results);
    expect(Object.keys(counts).every((status) => ['201', '401', '429'].includes(status))).toBe(true);
    expect((counts[201] ?? 0) + (counts[401] ?? 0)).toBeLessThanOrEqual(allowance);
    expect(counts[429]).toBeGreaterThanOrEqual(200 - allowance);
    for (const refused of results.filter((r) => r.status === 429)) expectThrottled(refused);

    // Still inside the window: the flood used up this address's allowance only, so the operator logs in
    // through the console from their own browser's address.
    expect((await login(h, target.email, target.password, viaConsole(h, '203.0.113.7'))).status).toBe(201);
    // And once the window has passed, from the flooded address too.
    const retryAfter = Math.max(...results.filter((r) => r.status === 429).map((r) => Number(r.headers.get('retry-after'))));
    expect(retryAfter).toBeLessThanOrEqual(h.env.config.opsLoginWindowSeconds);
    await sleep(retryAfter * 1000 + 250);
    expect((await login(h, target.email, target.password)).status).toBe(201);
  });
});

describe('login allowances', () => {
  let h: LedgerHarness;
  beforeAll(async () => {
    h = await startLedgerHarness({
      OPS_LOGIN_WINDOW_SECONDS: '600',
      OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS: '5',
      OPS_LOGIN_ATTEMPTS_PER_ADDRESS: '20',
      OPS_LOGIN_ATTEMPTS_PER_ACCOUNT: '10',
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('lets an operator in from an address they logged in from while the account is sprayed from many others', async () => {
    const target = await h.createOperator('ADMIN'); // logs in once from 127.0.0.1
    const sprayed = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login(h, target.email, `${WRONG} ${i}`, viaConsole(h, `198.51.100.${i + 1}`))),
    );
    const counts = tally(sprayed);
    expect(counts[401]).toBe(h.env.config.opsLoginAttemptsPerAccount);
    expect(counts[429]).toBe(25 - h.env.config.opsLoginAttemptsPerAccount);
    for (const refused of sprayed.filter((r) => r.status === 429)) expectThrottled(refused);

    // The known address is not held to the per-account allowance; a never-seen one is, until the window ends.
    expect((await login(h, target.email, target.password)).status).toBe(201);
    expectThrottled(await login(h, target.email, target.password, viaConsole(h, '198.51.100.200')));

    // What Redis remembers holds only hashes: no e-mail, no address; a known address is kept for about 30 days.
    const redis = new Redis(h.env.config.redisUrl);
    try {
      const keys = await redis.keys(`${h.env.redisPrefix}:ops-login-*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).not.toMatch(/@|198\.51|127\.0/);
      const known = keys.filter((key) => key.startsWith(`${h.env.redisPrefix}:ops-login-known:`));
      expect(known.length).toBeGreaterThan(0);
      for (const key of known) expect(await redis.ttl(key)).toBeGreaterThan(29 * 86400);
    } finally {
      redis.disconnect();
    }
  });

  it('ignores x-kasa-client-address without the internal token: a flood with changing addresses is counted per socket', async () => {
    const target = await h.createOperator('REVIEWER');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const spoofed =
        i % 2 === 0
          ? { 'x-kasa-client-address': `192.0.2.${i + 1}` }
          : { ...viaConsole(h, `192.0.2.${i + 1}`), 'x-internal-token': 'wrong-internal-token-value' };
      statuses.push((await login(h, target.email, WRONG, spoofed)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expectThrottled(await login(h, target.email, target.password, { 'x-kasa-client-address': '192.0.2.99' }));

    // With the token, the named address is the one counted, and it must be an address.
    expect((await login(h, target.email, WRONG, viaConsole(h, '192.0.2.100'))).status).toBe(401);
    const malformed = await login(h, target.email, WRONG, viaConsole(h, 'not-an-address'));
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('validation_failed');
  });

  it('gives back the failures of an address at a successful login', async () => {
    const target = await h.createOperator('REVIEWER');
    const from = viaConsole(h, '2001:db8:5::1');
    for (let i = 0; i < 4; i += 1) expect((await login(h, target.email, WRONG, from)).status).toBe(401);
    expect((await login(h, target.email, target.password, from)).status).toBe(201);
    for (let i = 0; i < 5; i += 1) expect((await login(h, target.email, WRONG, from)).status).toBe(401);
    // Another address in the same /64 is the same client.
    expectThrottled(await login(h, target.email, target.password, viaConsole(h, '2001:db8:5:0:ffff::2')));
  });

  it('limits one address across many e-mails, with the same answer for accounts that do not exist', async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login(h, `nobody-${i}@kasa.test`, WRONG, viaConsole(h, '192.0.2.200'))),
    );
    const counts = tally(results);
    expect(counts[401]).toBe(h.env.config.opsLoginAttemptsPerAddress);
    expect(counts[429]).toBe(25 - h.env.config.opsLoginAttemptsPerAddress);
    for (const refused of results.filter((r) => r.status === 429)) expectThrottled(refused);
  });
});

describe('login while Redis is down', () => {
  let redis: PrivateRedis;
  let h: LedgerHarness;
  beforeAll(async () => {
    // A Redis of this test's own, so stopping it disturbs no other test file.
    redis = await startPrivateRedis();
    h = await startLedgerHarness({ REDIS_URL: redis.url });
  });
  let redisDown = false;
  afterAll(async () => {
    // Stopping the ledger with Redis down would wait out bounded reconnects; bring it back first.
    if (redisDown) {
      await redis.restart();
      const { redis: commands, queueConnection } = h.ledger.deps;
      await eventually(async () => commands.status === 'ready' && queueConnection.status === 'ready', 15_000, 'the ledger back on Redis');
    }
    await h?.stop();
    await redis?.stop();
  }, 120_000);

  it('answers 503 with Retry-After at once, and logs in again when Redis is back', async () => {
    const target = await h.createOperator('REVIEWER');
    await redis.kill();
    redisDown = true;
    const started = Date.now();
    const answer = await login(h, target.email, target.password);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ status: 503, error: 'service_unavailable' });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    await redis.restart();
    redisDown = false;
    await eventually(async () => (await login(h, target.email, target.password)).status === 201, 15_000, 'login after Redis is back');
  });
});
