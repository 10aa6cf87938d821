/**
 * Real answers of the running gateway and ledger, judged against the served OpenAPI documents by a validator
 * nobody here wrote (express-openapi-validator, through ./support/validating-proxy.ts): success and error
 * answers alike, status, Content-Type and body.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bankTransferBody, makeTrIban } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from '../../services/gateway/test/harness.js';
import { startValidatingProxy, type ValidatingProxy } from './support/validating-proxy.js';

let h: Harness;
let site: TestSite;
let partnerDoc: Record<string, unknown>;
let opsDoc: Record<string, unknown>;
let partnerProxy: ValidatingProxy;
let opsProxy: ValidatingProxy;

beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.2', RISK_INTERVAL_MS: '200' });
  site = await h.createSite({ rateLimitPerMinute: 10000 });
  partnerDoc = (await (await fetch(`${h.gateway.url}/api/v1/openapi.json`)).json()) as Record<string, unknown>;
  opsDoc = (await (await fetch(`${h.ledger.url}/ops/v1/openapi.json`)).json()) as Record<string, unknown>;
  partnerProxy = await startValidatingProxy(partnerDoc, h.gateway.url);
  opsProxy = await startValidatingProxy(opsDoc, h.ledger.url);
});
afterAll(async () => {
  await partnerProxy?.close();
  await opsProxy?.close();
  await h?.stop();
});

type Answer = { status: number; body: any };

async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; key?: string; body?: unknown; type?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.key) headers['idempotency-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = options.type ?? 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined } as Answer;
}

const statusesOf = (proxy: ValidatingProxy) => [...new Set(proxy.judged.map((j) => j.status))].sort();

describe('partner answers satisfy the partner document (express-openapi-validator)', () => {
  it('creates, replays, looks up and lists deposits and withdrawals, and refuses what it should', async () => {
    const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(partnerProxy.url, method, path, { token: site.apiKey, ...options });
    const key = randomUUID();
    const deposit = { externalUserId: 'contract-user', amount: '150000', returnUrl: 'https://partner.example/wallet' };
    const created = await api('POST', '/api/v1/external/deposits', { key, body: deposit });
    expect(created.status).toBe(201);
    expect((await api('POST', '/api/v1/external/deposits', { key, body: deposit })).status).toBe(201);
    expect((await api('POST', '/api/v1/external/deposits', { key, body: { ...deposit, amount: '150001' } })).status).toBe(422);
    expect((await api('POST', '/api/v1/external/deposits', { key: randomUUID(), body: { ...deposit, amount: '1.5' } })).status).toBe(400);
    expect((await api('POST', '/api/v1/external/deposits', { body: deposit })).status).toBe(400);
    expect((await api('POST', '/api/v1/external/deposits', { key: randomUUID(), body: 'amount=1', type: 'text/plain' })).status).toBe(415);
    expect((await call(partnerProxy.url, 'POST', '/api/v1/external/deposits', { key: randomUUID(), body: deposit })).status).toBe(401);

    expect((await api('GET', `/api/v1/external/intents/${created.body.intentId}`)).status).toBe(200);
    expect((await api('GET', `/api/v1/external/intents/${randomUUID()}`)).status).toBe(404);
    expect((await api('GET', '/api/v1/external/intents?limit=1&status=RESERVED')).status).toBe(200);
    expect((await api('GET', '/api/v1/external/intents?status=NOPE')).status).toBe(400);
    expect((await call(partnerProxy.url, 'GET', '/api/v1/external/intents')).status).toBe(401);

    const withdrawal = { externalUserId: 'contract-user', amount: '50000', targetIban: makeTrIban(4242), targetHolderName: 'Ayşe Yılmaz' };
    const sent = await api('POST', '/api/v1/external/withdrawals', { key: randomUUID(), body: withdrawal });
    expect(sent.status).toBe(201);
    expect(
      (await api('POST', '/api/v1/external/withdrawals', { key: randomUUID(), body: { ...withdrawal, targetIban: 'TR00' } })).status,
    ).toBe(400);
    expect((await api('GET', `/api/v1/external/withdrawals/${sent.body.withdrawalId}`)).status).toBe(200);
    expect((await api('GET', `/api/v1/external/withdrawals/${randomUUID()}`)).status).toBe(404);
    expect((await api('GET', '/api/v1/external/withdrawals?limit=5')).status).toBe(200);

    expect(partnerProxy.violations).toEqual([]);
    expect(statusesOf(partnerProxy)).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 415, 422]));
  });

  it('changes the webhook config, lists and reads events, and answers 429 past the rate limit', async () => {
    const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
      call(partnerProxy.url, method, path, { token: site.apiKey, ...options });
    const config = await api('PUT', '/api/v1/external/site/webhook-config', { body: { webhookUrl: 'https://127.0.0.2:9443/hooks' } });
    expect(config.status).toBe(200);
    expect((await api('PUT', '/api/v1/external/site/webhook-config', { body: { webhookUrl: 42 } })).status).toBe(400);
    expect((await api('GET', '/api/v1/external/events?limit=5')).status).toBe(200);
    expect((await api('GET', `/api/v1/external/events/${randomUUID()}`)).status).toBe(404);
    expect((await api('POST', `/api/v1/external/events/${randomUUID()}/replay`, { key: randomUUID() })).status).toBe(404);
    const readConfig = await api('GET', '/api/v1/external/site/webhook-config');
    expect(readConfig.body).toEqual({
      webhookUrl: 'https://127.0.0.2:9443/hooks',
      rotatedAt: config.body.rotatedAt,
      eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'],
    });
    // Nothing listens there: the test webhook answers 200 with the failure, in the document's shape.
    const tested = await api('POST', '/api/v1/external/test/webhooks', { body: { type: 'ping' } });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ delivered: false, statusCode: null, error: expect.any(String) });
    expect((await api('POST', '/api/v1/external/test/webhooks', { body: { type: 'nope' } })).status).toBe(400);
    expect((await api('GET', '/api/v1/external/balance')).body).toMatchObject({ currency: 'TRY' });
    const since = new Date(Date.now() - 3600_000).toISOString();
    expect((await api('POST', '/api/v1/external/events/recover', { key: randomUUID(), body: { since } })).status).toBe(200);
    expect((await api('POST', '/api/v1/external/events/recover', { key: randomUUID(), body: { since, until: since } })).status).toBe(400);

    const slow = await h.createSite({ rateLimitPerMinute: 1 });
    const first = await call(partnerProxy.url, 'GET', '/api/v1/external/intents', { token: slow.apiKey });
    const second = await call(partnerProxy.url, 'GET', '/api/v1/external/intents', { token: slow.apiKey });
    expect([first.status, second.status]).toEqual([200, 429]);

    expect(partnerProxy.violations).toEqual([]);
  });

  it('reports an answer the document does not allow (the check can fail)', async () => {
    // The same document with one more required field on a deposit intent: a real lookup no longer satisfies it.
    const strict = structuredClone(partnerDoc) as { components: { schemas: Record<string, { required: string[] }> } };
    strict.components.schemas.DepositIntent!.required.push('notAField');
    const proxy = await startValidatingProxy(strict, h.gateway.url);
    try {
      const created = await call(h.gateway.url, 'POST', '/api/v1/external/deposits', {
        token: site.apiKey,
        key: randomUUID(),
        body: { externalUserId: 'contract-user', amount: '150000' },
      });
      const lookup = await call(proxy.url, 'GET', `/api/v1/external/intents/${created.body.intentId}`, { token: site.apiKey });
      expect(lookup.status).toBe(599);
      expect(proxy.violations.join('\n')).toContain('notAField');
      // An undocumented path is refused too.
      expect((await call(proxy.url, 'GET', '/api/v1/external/nothing-here', { token: site.apiKey })).status).not.toBe(200);
      expect(proxy.violations).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });
});

describe('ops answers satisfy the ops document (express-openapi-validator)', () => {
  const token = () => h.env.config.opsBootstrapToken;
  const ops = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(opsProxy.url, method, path, { token: token(), ...options });

  it('provisions sites, keys, accounts and operators', async () => {
    expect((await ops('GET', '/ops/v1/me')).status).toBe(200);
    expect((await call(opsProxy.url, 'GET', '/ops/v1/me')).status).toBe(401);
    expect((await call(opsProxy.url, 'POST', '/ops/v1/login', { body: { email: 'nobody@kasa.test', password: 'wrong' } })).status).toBe(
      401,
    );
    expect((await call(opsProxy.url, 'POST', '/ops/v1/login', { body: { email: 'x' } })).status).toBe(400);
    const logout = await ops('POST', '/ops/v1/logout');
    expect(logout.status).toBe(409);
    expect(logout.body).toMatchObject({ error: 'conflict', reason: 'bootstrap_token' });

    const slug = `contract-${randomUUID().slice(0, 8)}`;
    const created = await ops('POST', '/ops/v1/sites', {
      body: { slug, name: 'Contract Site', webhookUrl: 'https://127.0.0.2:9443/hooks' },
    });
    expect(created.status).toBe(201);
    const siteId = created.body.siteId as string;
    expect((await ops('POST', '/ops/v1/sites', { body: { slug: 'Not A Slug', name: 'x' } })).status).toBe(400);
    expect((await ops('GET', '/ops/v1/sites?limit=2')).status).toBe(200);
    expect((await ops('GET', `/ops/v1/sites/${siteId}`)).status).toBe(200);
    expect((await ops('GET', `/ops/v1/sites/${randomUUID()}`)).status).toBe(404);
    const key = await ops('POST', `/ops/v1/sites/${siteId}/api-keys`, { body: {} });
    expect(key.status).toBe(201);
    expect((await ops('GET', `/ops/v1/sites/${siteId}/api-keys`)).status).toBe(200);
    expect((await ops('DELETE', `/ops/v1/api-keys/${key.body.apiKeyId}`)).status).toBe(200);
    expect((await ops('GET', `/ops/v1/sites/${siteId}/balance`)).status).toBe(200);
    expect((await ops('GET', '/ops/v1/balances')).status).toBe(200);
    expect((await ops('GET', '/ops/v1/journal/check')).status).toBe(200);

    const account = { bankName: 'Ziraat Bankası', holderName: 'Kasa Ödeme Hizmetleri A.Ş.', iban: makeTrIban(Date.now() % 1e9) };
    expect((await ops('POST', '/ops/v1/receiving-accounts', { body: account })).status).toBe(201);
    expect((await ops('GET', '/ops/v1/receiving-accounts')).status).toBe(200);

    const email = `op-${randomUUID()}@kasa.test`;
    const password = `pw-${randomUUID()}`;
    const operator = await ops('POST', '/ops/v1/operators', { body: { email, name: 'Contract Reviewer', role: 'REVIEWER', password } });
    expect(operator.status).toBe(201);
    const operatorId = operator.body.operatorId as string;
    expect((await ops('GET', '/ops/v1/operators')).status).toBe(200);
    const login = await call(opsProxy.url, 'POST', '/ops/v1/login', { body: { email, password } });
    expect(login.status).toBe(201);
    expect((await call(opsProxy.url, 'GET', '/ops/v1/operators', { token: login.body.token })).status).toBe(403);
    const issued = await ops('POST', `/ops/v1/operators/${operatorId}/tokens`, { body: { label: 'script' } });
    expect(issued.status).toBe(201);
    expect((await ops('GET', `/ops/v1/operators/${operatorId}/tokens`)).status).toBe(200);
    expect((await ops('DELETE', `/ops/v1/operator-tokens/${issued.body.tokenId}`)).status).toBe(200);
    expect((await call(opsProxy.url, 'POST', '/ops/v1/logout', { token: login.body.token })).status).toBe(200);
    expect((await ops('POST', `/ops/v1/operators/${operatorId}/disable`)).status).toBe(200);
    expect((await ops('GET', '/ops/v1/audit?limit=5')).status).toBe(200);
    expect((await ops('GET', '/ops/v1/audit?limit=0')).status).toBe(400);

    expect(opsProxy.violations).toEqual([]);
  });

  it('reviews deposits and withdrawals, records and assigns bank transfers, and replays events', async () => {
    const partner = (body: unknown, kind: 'deposits' | 'withdrawals') =>
      call(h.gateway.url, 'POST', `/api/v1/external/${kind}`, { token: site.apiKey, key: randomUUID(), body });
    const intent = (await partner({ externalUserId: 'contract-ops', amount: '200000' }, 'deposits')).body;
    expect((await ops('POST', `/ops/v1/intents/${intent.intentId}/approve`, { body: {} })).status).toBe(409);
    // A hand entry names the account the money reached: several are active here.
    const [account] = (await ops('GET', '/ops/v1/receiving-accounts')).body.data as Array<{ id: string }>;
    const onAccount = { receivingAccountId: account?.id };
    const recorded = await ops('POST', '/ops/v1/bank-transfers', { body: bankTransferBody(intent.referenceNo, '200000', onAccount) });
    expect(recorded.status).toBe(201);
    expect((await ops('GET', `/ops/v1/bank-transfers/${recorded.body.bankTransferId}`)).status).toBe(200);
    expect((await ops('GET', `/ops/v1/intents/${intent.intentId}`)).status).toBe(200);
    expect((await ops('GET', `/ops/v1/intents?siteId=${site.siteId}&limit=3`)).status).toBe(200);
    expect((await ops('GET', '/ops/v1/intents?status=NOPE')).status).toBe(400);
    const approved = await ops('POST', `/ops/v1/intents/${intent.intentId}/approve`, { body: {} });
    expect(approved.status).toBe(200);

    const other = (await partner({ externalUserId: 'contract-ops', amount: '1000' }, 'deposits')).body;
    const unmatched = await ops('POST', '/ops/v1/bank-transfers', { body: bankTransferBody('', '1000', onAccount) });
    expect(unmatched.body.status).toBe('UNMATCHED');
    expect(
      (await ops('POST', `/ops/v1/bank-transfers/${unmatched.body.bankTransferId}/assign`, { body: { intentId: other.intentId } })).status,
    ).toBe(200);
    expect((await ops('POST', `/ops/v1/intents/${other.intentId}/reject`, { body: { reason: 'Sender does not match.' } })).status).toBe(
      200,
    );
    expect((await ops('GET', '/ops/v1/bank-transfers?status=UNMATCHED,ASSIGNED')).status).toBe(200);

    const withdrawal = { externalUserId: 'contract-ops', amount: '50000', targetIban: makeTrIban(777), targetHolderName: 'Ayşe Yılmaz' };
    const w1 = (await partner(withdrawal, 'withdrawals')).body;
    expect((await ops('GET', `/ops/v1/withdrawals/${w1.withdrawalId}`)).status).toBe(200);
    expect((await ops('POST', `/ops/v1/withdrawals/${w1.withdrawalId}/mark-sent`, { body: {} })).status).toBe(409);
    expect((await ops('POST', `/ops/v1/withdrawals/${w1.withdrawalId}/approve`, { body: {} })).status).toBe(200);
    expect(
      (await ops('POST', `/ops/v1/withdrawals/${w1.withdrawalId}/mark-sent`, { body: { bankTxId: `EFT-${randomUUID()}` } })).status,
    ).toBe(200);
    expect(
      (await ops('POST', `/ops/v1/withdrawals/${w1.withdrawalId}/mark-returned`, { body: { reason: 'Account closed.' } })).status,
    ).toBe(200);
    const w2 = (await partner(withdrawal, 'withdrawals')).body;
    expect((await ops('POST', `/ops/v1/withdrawals/${w2.withdrawalId}/reject`, { body: { reason: ' ' } })).status).toBe(400);
    expect((await ops('POST', `/ops/v1/withdrawals/${w2.withdrawalId}/reject`, { body: { reason: 'IBAN closed.' } })).status).toBe(200);
    expect((await ops('GET', `/ops/v1/withdrawals?siteId=${site.siteId}`)).status).toBe(200);

    const events = await ops('GET', `/ops/v1/events?siteId=${site.siteId}&limit=10`);
    expect(events.status).toBe(200);
    const eventId = events.body.data[0].eventId as string;
    // Attempts as the worker records them: an answer kept to its first 4 KiB, and an attempt that got none.
    await h.ledger.deps.db.deliveryAttempt.createMany({
      data: [
        {
          eventId,
          attemptNo: 1,
          url: 'https://127.0.0.2:9443/hooks',
          startedAt: new Date(),
          durationMs: 40,
          statusCode: 500,
          error: null,
          responseBody: 'x'.repeat(4096),
        },
        {
          eventId,
          attemptNo: 2,
          url: '(no webhook URL configured)',
          startedAt: new Date(),
          durationMs: 0,
          statusCode: null,
          error: 'the site has no webhook URL or signing secret configured',
          responseBody: null,
        },
      ],
    });
    const detail = await ops('GET', `/ops/v1/events/${eventId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.attempts.map((a: { url: string; responseBody: string | null }) => [a.url, a.responseBody?.length ?? null])).toEqual([
      ['https://127.0.0.2:9443/hooks', 4096],
      ['(no webhook URL configured)', null],
    ]);
    const partnerRead = await call(partnerProxy.url, 'GET', `/api/v1/external/events/${eventId}`, { token: site.apiKey });
    expect(partnerRead.status).toBe(200);
    expect(partnerRead.body.attempts).toEqual(detail.body.attempts);
    expect(partnerProxy.violations).toEqual([]);
    expect((await ops('GET', `/ops/v1/events/${randomUUID()}`)).status).toBe(404);
    expect([202, 409]).toContain((await ops('POST', `/ops/v1/events/${eventId}/replay`)).status);

    // The desk: search, the oldest-first queue, the dashboard and each partner's delivery health.
    const found = await ops('GET', `/ops/v1/search?q=${encodeURIComponent(intent.referenceNo.toLowerCase())}`);
    expect(found.body.deposits).toHaveLength(1);
    expect((await ops('GET', `/ops/v1/search?q=contract-ops`)).body.withdrawals.length).toBeGreaterThan(0);
    expect((await ops('GET', '/ops/v1/search?q=')).status).toBe(400);
    expect((await ops('GET', `/ops/v1/intents?order=oldest&amountMin=1000&externalUserId=contract-ops`)).status).toBe(200);
    expect((await ops('GET', '/ops/v1/dashboard')).status).toBe(200);
    expect((await ops('GET', `/ops/v1/delivery-health?siteId=${site.siteId}&hours=48`)).body.data).toHaveLength(1);
    expect((await ops('GET', '/ops/v1/delivery-health?hours=0')).status).toBe(400);

    // The incoming-money desk: set aside, return to the sender through its review.
    const loose = await ops('POST', '/ops/v1/bank-transfers', { body: bankTransferBody('', '4200', onAccount) });
    expect((await ops('POST', `/ops/v1/bank-transfers/${loose.body.bankTransferId}/set-aside`, { body: { reason: 'Hold' } })).status).toBe(
      200,
    );
    const asked = await ops('POST', `/ops/v1/bank-transfers/${loose.body.bankTransferId}/return`, { body: { reason: 'Back' } });
    expect(asked.status).toBe(201);
    expect((await ops('GET', '/ops/v1/sender-returns?status=PENDING_REVIEW&order=oldest')).status).toBe(200);
    expect((await ops('POST', `/ops/v1/sender-returns/${asked.body.returnId}/approve`, { body: {} })).status).toBe(200);
    expect((await ops('POST', `/ops/v1/sender-returns/${asked.body.returnId}/mark-sent`, { body: { bankTxId: 'EFT-1' } })).status).toBe(
      200,
    );
    expect((await ops('GET', `/ops/v1/sender-returns/${asked.body.returnId}`)).status).toBe(200);
    expect((await ops('POST', `/ops/v1/sender-returns/${asked.body.returnId}/reject`, { body: { reason: 'late' } })).status).toBe(409);

    expect(opsProxy.violations).toEqual([]);
    expect(statusesOf(opsProxy)).toEqual(expect.arrayContaining([200, 201, 400, 401, 403, 404, 409]));
  });

  it('imports a sanctions list, lists its versions and hits, and decides a hit with four eyes', async () => {
    const csv = [
      'id,kind,name,aliases,program,listed_on,birth_date,nationality',
      'TR-CONTRACT-1,individual,Kemal Sunalpınar,Kemal Sunalpinar,6415,2026-01-05,1970,Türkiye',
    ].join('\n');
    const list = '/ops/v1/screening/lists?source=csv&list=tr-contract';
    expect((await ops('POST', list, { body: csv, type: 'text/csv' })).status).toBe(201);
    expect((await ops('POST', list, { body: csv, type: 'text/csv' })).status).toBe(200);
    expect((await ops('POST', list, { body: 'id,kind\n', type: 'text/csv' })).status).toBe(400);
    expect((await ops('GET', '/ops/v1/screening/lists')).status).toBe(200);

    const created = await call(h.gateway.url, 'POST', '/api/v1/external/withdrawals', {
      token: site.apiKey,
      key: randomUUID(),
      body: { externalUserId: 'contract-screened', amount: '10000', targetIban: makeTrIban(424242), targetHolderName: 'SUNALPINAR Kemal' },
    });
    expect(created.status).toBe(201);
    const hits = await ops('GET', '/ops/v1/screening/hits');
    expect(hits.status).toBe(200);
    const hit = (hits.body.data as Array<{ hitId: string; subjectId: string }>).find((row) => row.subjectId === created.body.withdrawalId);
    expect(hit).toBeDefined();
    expect((await ops('GET', '/ops/v1/screening/hits?status=DECIDED')).status).toBe(200);
    expect((await ops('GET', '/ops/v1/screening/hits?status=nope')).status).toBe(400);
    const decision = `/ops/v1/screening/hits/${hit?.hitId}/decision`;
    const refused = await ops('POST', decision, { body: { decision: 'clear', note: 'bootstrap' } });
    expect(refused.body).toMatchObject({ status: 409, reason: 'second_approver_required' });
    expect((await ops('POST', `/ops/v1/withdrawals/${created.body.withdrawalId}/approve`, { body: {} })).body.reason).toBe(
      'compliance_hold',
    );
    const admins = await Promise.all(
      ['a', 'b'].map(async (tag) => {
        const email = `screening-${tag}-${randomUUID()}@kasa.test`;
        const password = `pw-${randomUUID()}`;
        expect(
          (await ops('POST', '/ops/v1/operators', { body: { email, name: `Compliance ${tag}`, role: 'ADMIN', password } })).status,
        ).toBe(201);
        return (await call(opsProxy.url, 'POST', '/ops/v1/login', { body: { email, password } })).body.token as string;
      }),
    );
    const first = await call(opsProxy.url, 'POST', decision, { token: admins[0], body: { decision: 'clear', note: 'Different person' } });
    expect(first.body.status).toBe('OPEN');
    const second = await call(opsProxy.url, 'POST', decision, { token: admins[1], body: { decision: 'clear', note: 'Agreed' } });
    expect(second.body.status).toBe('CLEARED');
    expect((await ops('POST', `/ops/v1/screening/hits/${randomUUID()}/decision`, { body: { decision: 'clear', note: 'x' } })).status).toBe(
      404,
    );

    expect(opsProxy.violations).toEqual([]);
  });

  it('lists, shows and reviews a risk flag and downloads the report', async () => {
    const intent = (
      await call(h.gateway.url, 'POST', '/api/v1/external/deposits', {
        token: site.apiKey,
        key: randomUUID(),
        body: { externalUserId: 'contract-risk', amount: '30000', externalUserLabel: 'Oya Güneş' },
      })
    ).body;
    const [account] = (await ops('GET', '/ops/v1/receiving-accounts')).body.data as Array<{ id: string }>;
    const body = bankTransferBody(intent.referenceNo, '30000', { receivingAccountId: account?.id, senderName: 'Burak Tekin' });
    expect((await ops('POST', '/ops/v1/bank-transfers', { body })).status).toBe(201);
    let flagId: string | undefined;
    for (let tries = 0; !flagId && tries < 100; tries += 1) {
      const queue = await ops('GET', '/ops/v1/risk-flags?rule=name_mismatch');
      expect(queue.status).toBe(200);
      flagId = (queue.body.data as Array<{ id: string; externalUserId: string }>).find(
        (flag) => flag.externalUserId === 'contract-risk',
      )?.id;
      if (!flagId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(flagId).toBeDefined();
    expect((await ops('GET', `/ops/v1/risk-flags/${flagId}`)).status).toBe(200);
    expect((await ops('GET', `/ops/v1/risk-flags/${randomUUID()}`)).status).toBe(404);
    expect((await ops('GET', '/ops/v1/risk-flags?status=nope')).status).toBe(400);
    const review = `/ops/v1/risk-flags/${flagId}/review`;
    expect((await ops('POST', review, { body: { outcome: 'reported', note: 'STR filed' } })).body.status).toBe('CLOSED');
    expect((await ops('POST', review, { body: { outcome: 'no_action', note: 'again' } })).status).toBe(409);
    expect((await ops('GET', '/ops/v1/risk-flags?status=CLOSED')).status).toBe(200);
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    // A file, not JSON: read from the ledger itself (the proxy judges JSON bodies); its refusals go through the proxy.
    const report = await fetch(`${h.ledger.url}/ops/v1/risk-flags/report?from=${day}&to=${day}`, {
      headers: { authorization: `Bearer ${token()}` },
    });
    expect(report.status).toBe(200);
    expect(await report.text()).toContain(flagId);
    expect((await ops('GET', '/ops/v1/risk-flags/report?from=2026-01-02&to=2026-01-01')).status).toBe(400);

    expect(opsProxy.violations).toEqual([]);
  });
});
