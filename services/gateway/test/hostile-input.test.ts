/**
 * Hostile and odd input at the partner edge: every case answers 4xx with a clear problem, nothing is
 * created, and nothing reaches a 5xx. Raw bytes go over undici, so bodies and URLs arrive exactly as sent.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'undici';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;
let base: string;
beforeAll(async () => {
  // The per-address limit on invalid keys has its own test below; here it must not turn 401s into 429s.
  h = await startHarness({ INVALID_KEY_ATTEMPTS_PER_MINUTE: '100000' });
  site = await h.createSite({ rateLimitPerMinute: 100000 });
  base = h.gateway.url;
});
afterAll(async () => {
  await h?.stop();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: string; errors?: Array<{ field: string; message: string }> } & Record<string, unknown>;
}

async function raw(method: 'GET' | 'POST', path: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<Raw> {
  const response = await request(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${site.apiKey}`,
      ...(body !== undefined ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body: text ? JSON.parse(text) : {} };
}

const depositCount = () => h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } });
const withdrawalCount = () => h.ledger.deps.db.withdrawal.count({ where: { siteId: site.siteId } });

describe('timestamps', () => {
  it.each(['2026-12-31T23:59:60Z', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '0001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'])(
    'refuses %s as a list filter with 400, not 500',
    async (instant) => {
      for (const path of ['/api/v1/external/intents', '/api/v1/external/withdrawals', '/api/v1/external/events']) {
        const answer = await raw('GET', `${path}?createdFrom=${encodeURIComponent(instant)}`);
        expect({ path, status: answer.status, error: answer.body.error }).toEqual({ path, status: 400, error: 'validation_failed' });
      }
    },
  );

  it('still takes a real instant with an offset', async () => {
    expect((await raw('GET', '/api/v1/external/intents?createdFrom=2026-06-30T23:59:59.999%2B03:00')).status).toBe(200);
  });
});

describe('request bodies', () => {
  it('refuses invalid UTF-8 with 400 before any fingerprint, so the key stays free for the real request', async () => {
    const before = await depositCount();
    const key = randomUUID();
    const bytes = Buffer.concat([
      Buffer.from('{"externalUserId":"u-1","externalUserLabel":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('","amount":"150000"}'),
    ]);
    const answer = await raw('POST', '/api/v1/external/deposits', bytes, { 'idempotency-key': key });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: '(body)', message: 'must be UTF-8 encoded' }]);
    // The same key with a different (valid) body is a first request, not a 422 reuse.
    const real = await raw('POST', '/api/v1/external/deposits', '{"externalUserId":"u-1","externalUserLabel":"x","amount":"150000"}', {
      'idempotency-key': key,
    });
    expect(real.status).toBe(201);
    expect(await depositCount()).toBe(before + 1);
  });

  it('does not let two different invalid bodies share one fingerprint', async () => {
    const key = randomUUID();
    const body = (byte: number) =>
      Buffer.concat([
        Buffer.from('{"externalUserId":"u-2","externalUserLabel":"a'),
        Buffer.from([byte]),
        Buffer.from('","amount":"150000"}'),
      ]);
    expect((await raw('POST', '/api/v1/external/deposits', body(0xff), { 'idempotency-key': key })).status).toBe(400);
    expect((await raw('POST', '/api/v1/external/deposits', body(0xfe), { 'idempotency-key': key })).status).toBe(400);
  });

  it.each([
    ['a NUL character', '{"externalUserId":"u-3","externalUserLabel":"a\\u0000b","amount":"150000"}', 'externalUserLabel'],
    ['an unpaired high surrogate', '{"externalUserId":"u-3","externalUserLabel":"a\\ud800b","amount":"150000"}', 'externalUserLabel'],
    ['an unpaired low surrogate', '{"externalUserId":"u-3","externalUserLabel":"\\udc00","amount":"150000"}', 'externalUserLabel'],
    ['a NUL in a field name', '{"externalUserId":"u-3","amount":"150000","a\\u0000":1}', '(body)'],
  ])('refuses %s with 400 and creates nothing', async (_what, body, field) => {
    const before = await depositCount();
    const answer = await raw('POST', '/api/v1/external/deposits', body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.field).toBe(field);
    expect(await depositCount()).toBe(before);
  });

  it('accepts a surrogate pair (an emoji) where printable text is allowed', async () => {
    expect(
      (
        await raw(
          'POST',
          '/api/v1/external/deposits',
          '{"externalUserId":"u-4","externalUserLabel":"Ay\\u015fe \\ud83d\\ude00","amount":"150000"}',
        )
      ).status,
    ).toBe(201);
  });

  it('refuses JSON nested deeper than 32 levels with 400', async () => {
    const deep = `{"externalUserId":"u-5","amount":"150000","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const answer = await raw('POST', '/api/v1/external/deposits', deep);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation_failed');
  });

  it.each(['1e400', '-0', '9'.repeat(400), '[]', 'null', '150000', '"0150000"', '"1500.00"'])(
    'refuses amount %s with 400',
    async (amount) => {
      const answer = await raw('POST', '/api/v1/external/deposits', `{"externalUserId":"u-6","amount":${amount}}`);
      expect(answer.status).toBe(400);
    },
  );
});

describe('names', () => {
  it.each(['  ', "-.'-", '..', "' '"])('refuses the holder name %j', async (name) => {
    const before = await withdrawalCount();
    const answer = await partner(base, site).createWithdrawal({ targetHolderName: name });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'targetHolderName', message: expect.stringContaining('at least one letter') }]);
    expect(await withdrawalCount()).toBe(before);
  });

  it('takes a Turkish name with punctuation', async () => {
    expect((await partner(base, site).createWithdrawal({ targetHolderName: "Ö. Çağlar-D'Şen" })).status).toBe(201);
  });
});

describe('URLs', () => {
  it.each([
    '/api/v1/external/intents?status=%00',
    '/api/v1/external/intents?status=%FF',
    '/api/v1/external/intents?status=%E0%A4%A',
    '/api/v1/external/intents/%00',
    '/api/v1/external/intents/%C0%AF',
  ])('refuses %s with 400', async (path) => {
    const answer = await raw('GET', path);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation_failed');
  });

  it('finds its own records by an upper-case UUID', async () => {
    const client = partner(base, site);
    const deposit = (await client.createDeposit()).body as { intentId: string };
    const withdrawal = (await client.createWithdrawal()).body as { withdrawalId: string };
    const intent = await client.get(`/api/v1/external/intents/${deposit.intentId.toUpperCase()}`);
    expect(intent.status).toBe(200);
    expect(intent.body.intentId).toBe(deposit.intentId);
    const payout = await client.get(`/api/v1/external/withdrawals/${withdrawal.withdrawalId.toUpperCase()}`);
    expect(payout.status).toBe(200);
    expect(payout.body.withdrawalId).toBe(withdrawal.withdrawalId);
  });

  it("still answers 404 for another site's record by an upper-case UUID", async () => {
    const other = await h.createSite();
    const deposit = (await partner(base, other).createDeposit()).body as { intentId: string };
    expect((await partner(base, site).get(`/api/v1/external/intents/${deposit.intentId.toUpperCase()}`)).status).toBe(404);
  });
});

describe('caching', () => {
  it('marks every API answer no-store: creates with their tokened depositUrl, reads, errors', async () => {
    const client = partner(base, site);
    const created = await client.createDeposit();
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    expect((await client.get(`/api/v1/external/intents/${created.body.intentId}`)).headers['cache-control']).toBe('no-store');
    expect((await client.get('/api/v1/external/intents')).headers['cache-control']).toBe('no-store');
    expect((await client.get('/api/v1/external/intents/nope')).headers['cache-control']).toBe('no-store');
    expect((await raw('GET', '/api/v1/external/intents', undefined, { authorization: 'Bearer nope' })).headers['cache-control']).toBe(
      'no-store',
    );
  });
});

describe('metrics', () => {
  it('label requests by route template: 128 unknown and unauthenticated paths add no series', async () => {
    const series = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const lines = text
        .split('\n')
        .filter((line) => line.startsWith('http_request_duration_seconds_count'))
        .map((line) => line.split(' ')[0]);
      return new Set(lines).size;
    };
    // Warm the labels these requests can legitimately produce (401 and 404, matched and unmatched).
    await series();
    await raw('GET', `/api/v1/external/intents/${randomUUID()}`, undefined, { authorization: 'Bearer x' });
    await raw('GET', `/nowhere/${randomUUID()}`, undefined, { authorization: 'Bearer x' });
    await raw('GET', `/api/v1/external/intents/${randomUUID()}`);
    await raw('GET', `/api/v1/external/nowhere/${randomUUID()}`);
    const before = await series();
    for (let i = 0; i < 32; i += 1) {
      await raw('GET', `/api/v1/external/intents/${randomUUID()}`, undefined, { authorization: 'Bearer x' });
      await raw('GET', `/nowhere/${randomUUID()}`, undefined, { authorization: 'Bearer x' });
      await raw('GET', `/api/v1/external/intents/${randomUUID()}`);
      await raw('GET', `/api/v1/external/nowhere/${randomUUID()}`);
    }
    expect(await series()).toBe(before);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
    // Labels name the whole template, mount path included.
    expect(text).toContain('route="/api/v1/external/intents/:intentId",status="404"');
  });
});

describe('invalid API keys', () => {
  let limited: Harness;
  let good: TestSite;
  beforeAll(async () => {
    limited = await startHarness({ INVALID_KEY_ATTEMPTS_PER_MINUTE: '5' });
    good = await limited.createSite();
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('are limited per client address with the 429 contract, without asking the ledger, while a real key still works', async () => {
    const lookups = () => limited.ledger.deps.db.apiKey.count();
    const attempt = (authorization?: string) =>
      request(`${limited.gateway.url}/api/v1/external/intents`, { headers: authorization ? { authorization } : {} }).then(async (r) => ({
        status: r.statusCode,
        headers: r.headers,
        body: JSON.parse(await r.body.text()) as { error: string },
      }));
    // The real key is used once first, so the gateway's cache knows it: a blocked address stops being
    // looked up for keys the cache does not know, and known keys keep working.
    expect((await attempt(`Bearer ${good.apiKey}`)).status).toBe(200);
    const guesses = [
      undefined,
      'Basic abc',
      ...Array.from({ length: 10 }, () => `Bearer sk_live_${good.slug}_${randomUUID().replace(/-/g, '')}`),
    ];
    const answers = [];
    for (const guess of guesses) answers.push(await attempt(guess));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    for (const answer of answers.slice(5)) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toBe('rate_limited');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(answer.headers['ratelimit-policy']).toBe('"invalid-key";q=5;w=60');
    }
    // The key table is not what is counted here; the ledger's resolve endpoint is: none of the refused
    // guesses reached it, which the ledger's metrics show.
    const resolveCalls = async () => {
      const text = await (await fetch(`${limited.ledger.url}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('http_request_duration_seconds_count') && l.includes('route="/internal/v1/auth/resolve"'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const before = await resolveCalls();
    await attempt(`Bearer sk_live_${good.slug}_${randomUUID().replace(/-/g, '')}`);
    expect(await resolveCalls()).toBe(before);
    expect(await lookups()).toBeGreaterThan(0);
    const real = await attempt(`Bearer ${good.apiKey}`);
    expect(real.status).toBe(200);
  });

  it('count a spoofed X-Forwarded-For as the socket address when no proxy is trusted', async () => {
    const other = await limited.createSite();
    const guess = (forwardedFor: string) =>
      request(`${limited.gateway.url}/api/v1/external/intents`, {
        headers: { authorization: `Bearer sk_live_${other.slug}_${randomUUID().replace(/-/g, '')}`, 'x-forwarded-for': forwardedFor },
      }).then((r) => r.statusCode);
    // The address is already blocked by the test above; a header naming a new address changes nothing.
    expect(await guess('203.0.113.9')).toBe(429);
  });

  it('count each client behind a trusted proxy by the address the proxy reports (TRUST_PROXY)', async () => {
    const proxied = await startHarness({ INVALID_KEY_ATTEMPTS_PER_MINUTE: '3', TRUST_PROXY: 'loopback' });
    try {
      const site = await proxied.createSite();
      const guess = (client: string) =>
        request(`${proxied.gateway.url}/api/v1/external/intents`, {
          headers: { authorization: `Bearer sk_live_${site.slug}_${randomUUID().replace(/-/g, '')}`, 'x-forwarded-for': client },
        }).then((r) => r.statusCode);
      const first = [];
      for (let i = 0; i < 4; i += 1) first.push(await guess('198.51.100.1'));
      expect(first).toEqual([401, 401, 401, 429]);
      // Another client behind the same proxy keeps its own allowance.
      expect(await guess('198.51.100.2')).toBe(401);
    } finally {
      await proxied.stop();
    }
  });
});
