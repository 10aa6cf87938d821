/**
 * The gateway's /metrics after partner traffic: HTTP requests by route template, 429s by reason and
 * idempotent replays by route, with no site, key or record id in any label.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;

beforeAll(async () => {
  h = await startHarness({ INVALID_KEY_ATTEMPTS_PER_MINUTE: '2' });
  site = await h.createSite({ rateLimitPerMinute: 3 });
});
afterAll(async () => {
  await h?.stop();
});

const scrape = async () => (await fetch(`${h.gateway.url}/metrics`)).text();

/** The value of one series, found by its name and the labels given (all must match); 0 when absent. */
function value(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('gateway metrics', () => {
  it('count idempotent replays and 429s by reason, and label requests by route template only', async () => {
    const api = partner(h.gateway.url, site);
    const key = randomUUID();
    const first = await api.createDeposit({ amount: '120000' }, key);
    expect(first.status).toBe(201);
    const replayed = await api.createDeposit({ amount: '120000' }, key);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    await api.get(`/api/v1/external/intents/${first.body.intentId as string}`);
    // The site's budget is 3 a minute: the fourth request is refused.
    expect((await api.get('/api/v1/external/intents')).status).toBe(429);
    // Invalid keys from this address, past its allowance of 2.
    for (let i = 0; i < 3; i += 1) {
      await fetch(`${h.gateway.url}/api/v1/external/intents`, {
        headers: { authorization: `Bearer sk_live_${site.slug}_${'x'.repeat(40)}` },
      });
    }

    const text = await scrape();
    expect(value(text, 'kasa_gateway_idempotent_replays_total', { route: '/api/v1/external/deposits' })).toBe(1);
    expect(value(text, 'kasa_gateway_rate_limited_total', { reason: 'site_limit' })).toBe(1);
    expect(value(text, 'kasa_gateway_rate_limited_total', { reason: 'invalid_key' })).toBeGreaterThanOrEqual(1);
    expect(text).toContain('route="/api/v1/external/deposits",status="201"');
    expect(text).toContain('route="/api/v1/external/intents/:intentId",status="200"');

    // Label values name routes, methods, statuses, reasons: never a site, a key or a record.
    const values = [...text.matchAll(/[a-zA-Z_]\w*="((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] as string);
    for (const label of values) {
      expect(label).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
      expect(label).not.toContain(site.slug);
      expect(label).not.toContain('sk_live');
    }
    const reasons = new Set([...text.matchAll(/kasa_gateway_rate_limited_total\{[^}]*reason="([^"]+)"/g)].map((m) => m[1]));
    expect([...reasons].sort()).toEqual(['invalid_key', 'site_limit']);
  });
});
