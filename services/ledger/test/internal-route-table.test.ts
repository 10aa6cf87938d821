/**
 * The gateway's hot calls (partner creates and lookups) run on the ledger's own small route table
 * (src/internal-routes.ts), ahead of the ops API's chain: each still gets its request id, one access-log line with
 * its route template and site, `Cache-Control: no-store`, its metrics label and the usual problem bodies; a request
 * the table does not take (an upper-case id) gets the same answer through the full chain.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import winston from 'winston';
import { createLogger } from '@kasa/logger';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const lines: string[] = [];
const logger = createLogger({
  service: 'ledger',
  level: 'info',
  transports: [
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      }),
    }),
  ],
});
const accessLines = (requestId: string) =>
  lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === 'http request' && line.requestId === requestId);

describe('the internal route table', () => {
  let h: LedgerHarness;
  let site: TestSite;

  beforeAll(async () => {
    h = await startLedgerHarness({ LOG_LEVEL: 'info' }, { logger });
    site = await h.createSite();
  });

  afterAll(async () => {
    await h.stop();
  });

  const call = (method: 'GET' | 'POST', path: string, options: { body?: string; token?: string; requestId?: string } = {}) =>
    fetch(`${h.ledger.url}/internal/v1${path}`, {
      method,
      headers: {
        'x-internal-token': options.token ?? h.env.config.internalToken,
        'x-request-id': options.requestId ?? `req-${randomUUID()}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
  const createBody = (request: Record<string, unknown>) =>
    JSON.stringify({ idempotencyKey: randomUUID(), fingerprint: sha256Hex(JSON.stringify(request)), request });

  it('logs one access line per create and lookup with the route template and the site, and echoes the request id', async () => {
    const createId = `req-${randomUUID()}`;
    const created = await call('POST', `/sites/${site.siteId}/deposits`, {
      body: createBody({ externalUserId: 'u-table', amount: '150000' }),
      requestId: createId,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe(createId);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { intentId } = (await created.json()) as { intentId: string };

    const lookupId = `req-${randomUUID()}`;
    const lookup = await call('GET', `/sites/${site.siteId}/intents/${intentId}`, { requestId: lookupId });
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get('cache-control')).toBe('no-store');

    await new Promise((resolve) => setImmediate(resolve));
    expect(accessLines(createId)).toEqual([
      expect.objectContaining({ method: 'POST', route: '/internal/v1/sites/:siteId/deposits', status: 201, siteId: site.siteId }),
    ]);
    expect(accessLines(lookupId)).toEqual([
      expect.objectContaining({ method: 'GET', route: '/internal/v1/sites/:siteId/intents/:intentId', status: 200, siteId: site.siteId }),
    ]);
    // The business line of the create carries the same request id.
    expect(lines.some((line) => line.includes('"deposit created"') && line.includes(createId))).toBe(true);

    const metrics = await (await fetch(`${h.ledger.url}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/internal\/v1\/sites\/:siteId\/deposits"[^}]*status="201"/);
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/internal\/v1\/sites\/:siteId\/intents\/:intentId"[^}]*status="200"/,
    );
  });

  it('answers the usual problem bodies: a wrong token, a body that is not JSON, an unknown id', async () => {
    const requestId = `req-${randomUUID()}`;
    const refused = await call('POST', `/sites/${site.siteId}/deposits`, {
      body: createBody({ externalUserId: 'u', amount: '150000' }),
      token: 'wrong-token-value',
      requestId,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ error: 'unauthorized', requestId });

    const broken = await call('POST', `/sites/${site.siteId}/deposits`, { body: '{"idempotencyKey":' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toBe('validation_failed');

    const missing = await call('GET', `/sites/${site.siteId}/withdrawals/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('not_found');
  });

  it('answers an upper-case or malformed id through the full chain as before', async () => {
    const created = await h.createDeposit(site, 150_000);
    const upper = await call('GET', `/sites/${site.siteId}/intents/${created.intentId.toUpperCase()}`);
    expect(upper.status).toBe(200);
    expect(((await upper.json()) as { intentId: string }).intentId).toBe(created.intentId);
    const malformed = await call('GET', `/sites/${site.siteId}/intents/not-a-uuid`);
    expect(malformed.status).toBe(404);
  });
});
