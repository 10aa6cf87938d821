/**
 * The partner create and lookup as the gateway calls them (`/internal/v1`): the internal token is checked
 * on every request, however many internal routers a request passes; the page link in a create's answer is
 * the one whose hash the intent was stored with, on the first answer and on a replay alike.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the internal create and lookup path', () => {
  let h: LedgerHarness;
  let site: TestSite;

  beforeAll(async () => {
    h = await startLedgerHarness();
    site = await h.createSite();
  });

  afterAll(async () => {
    await h.stop();
  });

  const call = (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${h.ledger.url}/internal/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('refuses a create and a lookup without the internal token or with a wrong one, and creates nothing', async () => {
    const known = await h.createDeposit(site, 150_000);
    const request = { externalUserId: 'u-no-token', amount: '150000' };
    const envelope = { idempotencyKey: randomUUID(), fingerprint: sha256Hex(JSON.stringify(request)), request };
    const refused: Array<Record<string, string>> = [{}, { 'x-internal-token': 'not-the-internal-token-value' }];
    for (const headers of refused) {
      const create = await call('POST', `/sites/${site.siteId}/deposits`, headers, envelope);
      expect(create.status).toBe(401);
      const lookup = await call('GET', `/sites/${site.siteId}/intents/${known.intentId}`, headers);
      expect(lookup.status).toBe(401);
    }
    // The key refused above is still free: the first create with the token makes the intent.
    const created = await h.internal('POST', `/sites/${site.siteId}/deposits`, envelope);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBe('false');
  });

  it('answers a create with the page link the intent was stored with, and the same link on a replay', async () => {
    const request = { externalUserId: 'u-page-link', amount: '250000' };
    const envelope = { idempotencyKey: randomUUID(), fingerprint: sha256Hex(JSON.stringify(request)), request };
    const first = await h.internal('POST', `/sites/${site.siteId}/deposits`, envelope);
    const replay = await h.internal('POST', `/sites/${site.siteId}/deposits`, envelope);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const body = first.body as { intentId: string; referenceNo: string; depositUrl: string };
    expect((replay.body as { depositUrl: string }).depositUrl).toBe(body.depositUrl);

    const token = body.depositUrl.split('/deposit/')[1] as string;
    const page = await h.internal('GET', `/deposit-pages/${sha256Hex(token)}`);
    expect(page.status).toBe(200);
    expect((page.body as { referenceNo: string }).referenceNo).toBe(body.referenceNo);

    const lookup = await h.internal('GET', `/sites/${site.siteId}/intents/${body.intentId}`);
    expect(lookup.status).toBe(200);
    expect((lookup.body as { intentId: string }).intentId).toBe(body.intentId);
  });
});
