/**
 * Guessing deposit-page links: links that name no deposit are counted per client address
 * (UNKNOWN_PAGE_TOKEN_ATTEMPTS_PER_MINUTE); past the allowance an address gets the 429 contract for every link until
 * the minute ends, without the ledger being asked, and other addresses are not affected.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;
let ledgerCalls = 0;

beforeAll(async () => {
  h = await startHarness({ UNKNOWN_PAGE_TOKEN_ATTEMPTS_PER_MINUTE: '3', TRUST_PROXY: '1' });
  site = await h.createSite();
  // Counts the gateway's calls to the ledger (each still goes through).
  const ledger = h.gateway.deps.ledger;
  const forward = ledger.request.bind(ledger);
  ledger.request = (...args: Parameters<typeof forward>) => ((ledgerCalls += 1), forward(...args));
});
afterAll(async () => {
  await h?.stop();
});

const from = (address: string, path: string) => request(h.gateway.url).get(path).set('X-Forwarded-For', address);
const guess = (n: number) => `/deposit/${String(n).padStart(43, 'G')}`;

describe('unknown deposit-page links per address', () => {
  it('answers 404 up to the allowance, then 429 with Retry-After and RateLimit, asking the ledger nothing more', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '150000' });
    const page = new URL(created.body.depositUrl as string).pathname;

    for (const n of [1, 2]) expect((await from('198.51.100.7', guess(n))).status).toBe(404);
    // The allowance counts malformed links too.
    expect((await from('198.51.100.7', '/deposit/short')).status).toBe(404);
    const calls = ledgerCalls;
    const refused = await from('198.51.100.7', guess(4));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited' });
    expect(refused.body.detail).toContain('deposit-page links that name no deposit');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['ratelimit-policy']).toBe('"unknown-deposit-page";q=3;w=60');
    expect(refused.headers['ratelimit']).toMatch(/^"unknown-deposit-page";r=0;t=\d+$/);
    // Refused before the ledger: even a real link, and the page's status poll, from this address.
    expect((await from('198.51.100.7', page)).status).toBe(429);
    expect((await from('198.51.100.7', `${page}/status`)).status).toBe(429);
    expect(ledgerCalls).toBe(calls);

    // Another address opens the page as usual.
    const other = await from('203.0.113.9', page);
    expect(other.status).toBe(200);
    expect(other.text).toContain(created.body.referenceNo as string);
  });

  it('a real link does not use up the allowance', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '150000' });
    const page = new URL(created.body.depositUrl as string).pathname;
    for (let n = 0; n < 6; n += 1) expect((await from('192.0.2.44', page)).status).toBe(200);
    expect((await from('192.0.2.44', guess(99))).status).toBe(404);
  });
});
