/**
 * @kasa/sdk against a real gateway and ledger: creates, lookups, lists and iteration, a retried create that
 * keeps its Idempotency-Key through a lost answer, typed errors, and webhook verification.
 */
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildWebhookHeaders, generateWebhookSecret } from '@kasa/webhook-signing';
import { makeTrIban } from '@kasa/testkit';
import { KasaApiError, KasaClient, verifyWebhook, WebhookVerificationError } from '../src/index.js';
import { generatedTypes } from '../scripts/generated-types.js';
import { startHarness, type Harness, type TestSite } from '../../../services/gateway/test/harness.js';

let h: Harness;
let site: TestSite;
let kasa: KasaClient;

beforeAll(async () => {
  h = await startHarness();
  site = await h.createSite({ rateLimitPerMinute: 10000 });
  kasa = new KasaClient({ baseUrl: h.gateway.url, apiKey: site.apiKey, retryBaseMs: 10 });
});
afterAll(async () => {
  await h?.stop();
});

/**
 * A proxy in front of the gateway that passes the first `lose` POSTs on but answers the client 503, as if the
 * answer was lost on the way back; it records the Idempotency-Key of every POST it sees.
 */
async function losingProxy(lose: number): Promise<{ url: string; keys: string[]; close(): Promise<void> }> {
  const keys: string[] = [];
  const target = new URL(h.gateway.url);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') keys.push(String(req.headers['idempotency-key']));
      const forward = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
        (upstream) => {
          const body: Buffer[] = [];
          upstream.on('data', (chunk: Buffer) => body.push(chunk));
          upstream.on('end', () => {
            if (req.method === 'POST' && keys.length <= lose) {
              res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' }).end('{"error":"service_unavailable"}');
              return;
            }
            res.writeHead(upstream.statusCode ?? 502, upstream.headers).end(Buffer.concat(body));
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('@kasa/sdk', () => {
  it('ships types that match a fresh openapi-typescript generation from the contract', async () => {
    const committed = readFileSync(new URL('../src/generated/kasa-api.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await generatedTypes());
  });

  it('creates, looks up, lists and iterates deposits', async () => {
    const fresh = await h.createSite({ rateLimitPerMinute: 10000 });
    const client = new KasaClient({ baseUrl: h.gateway.url, apiKey: fresh.apiKey });
    const created = [];
    for (const amount of ['150000', '160000', '170000']) created.push(await client.deposits.create({ externalUserId: 'sdk-user', amount }));
    expect(created[0]?.depositUrl).toMatch(/\/deposit\//);
    const intent = await client.intents.get(created[0]!.intentId);
    expect(intent).toMatchObject({ intentId: created[0]!.intentId, status: 'RESERVED', amount: '150000' });
    const page = await client.intents.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const all: string[] = [];
    for await (const item of client.intents.iterate({ limit: 1 })) all.push(item.intentId);
    expect(all.sort()).toEqual(created.map((c) => c.intentId).sort());

    const withdrawal = await client.withdrawals.create({
      externalUserId: 'sdk-user',
      amount: '50000',
      targetIban: makeTrIban(777),
      targetHolderName: 'Ayşe Yılmaz',
    });
    await expect(client.withdrawals.get(withdrawal.withdrawalId)).resolves.toMatchObject({ withdrawalId: withdrawal.withdrawalId });
    const events = [];
    for await (const event of client.events.iterate()) events.push(event);
    expect(events).toEqual([]);
  });

  it('retries a create whose answer was lost with the same Idempotency-Key, and one intent exists', async () => {
    const fresh = await h.createSite({ rateLimitPerMinute: 10000 });
    const proxy = await losingProxy(2);
    try {
      const client = new KasaClient({ baseUrl: proxy.url, apiKey: fresh.apiKey, retryBaseMs: 5 });
      const created = await client.deposits.create({ externalUserId: 'retry-user', amount: '99000' });
      expect(proxy.keys).toHaveLength(3);
      expect(new Set(proxy.keys).size).toBe(1);
      const listed = [];
      for await (const item of new KasaClient({ baseUrl: h.gateway.url, apiKey: fresh.apiKey }).intents.iterate()) listed.push(item);
      expect(listed.map((item) => item.intentId)).toEqual([created.intentId]);
    } finally {
      await proxy.close();
    }
  });

  it('gives up after maxRetries and reports the last answer as a typed error', async () => {
    const proxy = await losingProxy(10);
    try {
      const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1, maxRetries: 2 });
      const error = await client.deposits.create({ externalUserId: 'u', amount: '10000' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KasaApiError);
      expect((error as KasaApiError).code).toBe('service_unavailable');
      expect(proxy.keys).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('throws typed errors by code, without retrying a 4xx', async () => {
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (e: unknown) => (e instanceof KasaApiError ? `${e.status} ${e.code}` : String(e)),
      );
    await expect(codeOf(kasa.deposits.create({ externalUserId: 'u', amount: '0' }))).resolves.toBe('400 validation_failed');
    const stranger = new KasaClient({ baseUrl: h.gateway.url, apiKey: `sk_live_${site.slug}_${'x'.repeat(40)}` });
    await expect(codeOf(stranger.intents.list())).resolves.toBe('401 unauthorized');
    await expect(codeOf(kasa.intents.get('00000000-0000-4000-8000-000000000000'))).resolves.toBe('404 not_found');
    await kasa.deposits.create({ externalUserId: 'u', amount: '10000' }, { idempotencyKey: 'sdk-reused-key' });
    await expect(
      codeOf(kasa.deposits.create({ externalUserId: 'u', amount: '10001' }, { idempotencyKey: 'sdk-reused-key' })),
    ).resolves.toBe('422 idempotency_key_reused');
    // Counted at a proxy: a 400 is answered once, never retried.
    const proxy = await losingProxy(0);
    try {
      const client = new KasaClient({ baseUrl: proxy.url, apiKey: site.apiKey, retryBaseMs: 1 });
      const invalid = await client.deposits.create({ externalUserId: 'u', amount: '0' }).then(
        () => {
          throw new Error('created');
        },
        (e: unknown) => e as KasaApiError,
      );
      expect(invalid.fieldErrors.map((f: { field: string }) => f.field)).toContain('amount');
      expect(invalid.requestId).toEqual(expect.any(String));
      expect(proxy.keys).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('verifies webhooks by either signature, and refuses a changed body or another secret', () => {
    const secret = generateWebhookSecret();
    const rawBody = JSON.stringify({ eventId: 'e-1', type: 'intent.approved', createdAt: new Date().toISOString(), data: {} });
    const headers = buildWebhookHeaders({ secrets: [secret], eventId: 'e-1', timestamp: Math.floor(Date.now() / 1000), rawBody });
    expect(verifyWebhook({ secret, headers, rawBody }).eventId).toBe('e-1');
    const standardOnly = {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    };
    expect(verifyWebhook({ secret, headers: new Headers(standardOnly), rawBody }).eventId).toBe('e-1');
    expect(() => verifyWebhook({ secret, headers, rawBody: rawBody.replace('e-1', 'e-2') })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ secret: generateWebhookSecret(), headers: standardOnly, rawBody })).toThrow(WebhookVerificationError);
  });
});
