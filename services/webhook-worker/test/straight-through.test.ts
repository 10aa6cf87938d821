/**
 * Straight-through approval end to end: a site's rule on, a deposit created through the gateway, its money in an
 * imported bank statement, and a signed `intent.approved` at the partner's TLS receiver, audited with actor SYSTEM
 * and the rule that fired; each case the rule refuses stays PENDING_REVIEW with no event.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { verifyWebhook } from '@kasa/webhook-signing';
import { makeTrIban } from '@kasa/testkit';
import type { TestSite } from '../../gateway/test/harness.js';
import { configureWebhook, startStack, waitFor, type Stack } from './support/stack.js';

let stack: Stack;
let account: { id: string; iban: string };
beforeAll(async () => {
  stack = await startStack();
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await stack.h.ops('POST', '/ops/v1/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  account = { id: created.body.id as string, iban };
});
afterAll(async () => {
  await stack?.stop();
});

const RULE = { enabled: true, maxAmount: '500000', requireSenderMatch: true };

async function siteWithRule(autoApprove: Record<string, unknown> = RULE) {
  const site = await stack.h.createSite();
  const { webhookSecret } = await configureWebhook(stack.h, site, stack.receiver.url);
  const patched = await stack.h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { autoApprove });
  expect(patched.status).toBe(200);
  return { site, secret: webhookSecret as string };
}

async function createDeposit(site: TestSite, amount: string, label: string | null = 'Ayşe Yılmaz') {
  const response = await request(stack.h.gateway.url)
    .post('/api/v1/external/deposits')
    .set('authorization', `Bearer ${site.apiKey}`)
    .set('idempotency-key', randomUUID())
    .send({ externalUserId: 'user-1', amount, ...(label ? { externalUserLabel: label } : {}) });
  expect(response.status).toBe(201);
  return response.body as { intentId: string; referenceNo: string; expiresAt: string };
}

let statementNo = 0;
/** A one-day CSV statement of the test's account holding `credits`, with balances that add up. */
function statement(credits: Array<{ amount: string; name: string; description: string; bookedAt?: string }>): string {
  statementNo += 1;
  const id = `ST-${statementNo}-${randomUUID().slice(0, 8)}`;
  const header =
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id';
  const lira = (kurus: bigint) => `${kurus / 100n}.${(kurus % 100n).toString().padStart(2, '0')}`;
  const total = credits.reduce((sum, credit) => sum + BigInt(credit.amount), 0n);
  const now = new Date().toISOString();
  const rows = credits.map(
    (credit, i) =>
      `${account.iban},${id},${credit.bookedAt ?? now},credit,${lira(BigInt(credit.amount))},TRY,${id}-${i},${credit.name},TR290006400000112345678901,${credit.description},`,
  );
  return [
    header,
    `${account.iban},${id},${now},opening,0.00,TRY,,,,,`,
    ...rows,
    `${account.iban},${id},${now},closing,${lira(total)},TRY,,,,,`,
  ].join('\n');
}

async function importStatement(csv: string) {
  const response = await fetch(`${stack.h.ledger.url}/ops/v1/receiving-accounts/${account.id}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
    body: csv,
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { autoApproved: number; matched: number };
}

const intentOf = (intentId: string) => stack.h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: intentId } });

describe('straight-through approval', () => {
  it('approves an exact, on-time, small deposit from the user and delivers a signed intent.approved', async () => {
    const { site, secret } = await siteWithRule();
    const deposit = await createDeposit(site, '150000');
    const imported = await importStatement(
      statement([{ amount: '150000', name: 'AYŞE YILMAZ', description: `HAVALE ${deposit.referenceNo}` }]),
    );
    expect(imported).toMatchObject({ matched: 1, autoApproved: 1 });

    const delivery = await waitFor('the intent.approved delivery', () =>
      stack.receiver.deliveries.find((d) => JSON.parse(d.rawBody.toString()).data?.intentId === deposit.intentId),
    );
    expect(() =>
      verifyWebhook({ header: delivery.signature, eventId: delivery.eventId, rawBody: delivery.rawBody, secrets: secret }),
    ).not.toThrow();
    expect(JSON.parse(delivery.rawBody.toString())).toMatchObject({
      type: 'intent.approved',
      data: { intentId: deposit.intentId, status: 'APPROVED', amount: '150000' },
    });

    const audit = await stack.h.ledger.deps.db.auditLog.findFirstOrThrow({
      where: { entityId: deposit.intentId, action: 'INTENT.APPROVED' },
    });
    expect(audit).toMatchObject({
      actorType: 'SYSTEM',
      actorId: 'straight-through',
      metadata: {
        amount: '150000',
        operatorEnteredAmount: false,
        rule: {
          name: 'straight_through',
          maxAmount: '500000',
          requireSenderMatch: true,
          reasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
        },
      },
    });
    const balance = await stack.h.ops('GET', `/ops/v1/sites/${site.siteId}/balance`);
    expect(balance.body).toMatchObject({ available: '150000' });
  });

  const refusals: Array<[string, Record<string, unknown>, (ref: string) => Parameters<typeof statement>[0], string, string | null]> = [
    ['above maxAmount', RULE, (ref) => [{ amount: '600000', name: 'AYŞE YILMAZ', description: ref }], '600000', 'Ayşe Yılmaz'],
    ['from another sender', RULE, (ref) => [{ amount: '150000', name: 'MEHMET DEMİR', description: ref }], '150000', 'Ayşe Yılmaz'],
    ['without a label to compare', RULE, (ref) => [{ amount: '150000', name: 'AYŞE YILMAZ', description: ref }], '150000', null],
    ['for less money', RULE, (ref) => [{ amount: '100000', name: 'AYŞE YILMAZ', description: ref }], '150000', 'Ayşe Yılmaz'],
    [
      'paid in two transfers',
      RULE,
      (ref) => [
        { amount: '100000', name: 'AYŞE YILMAZ', description: ref },
        { amount: '50000', name: 'AYŞE YILMAZ', description: ref },
      ],
      '150000',
      'Ayşe Yılmaz',
    ],
    [
      'late',
      RULE,
      (ref) => [{ amount: '150000', name: 'AYŞE YILMAZ', description: ref, bookedAt: new Date(Date.now() + 2 * 3600_000).toISOString() }],
      '150000',
      'Ayşe Yılmaz',
    ],
    [
      'with a near reference',
      RULE,
      (ref) => [{ amount: '150000', name: 'AYŞE YILMAZ', description: ref.slice(0, 5) + (ref[5] === '7' ? '8' : '7') + ref.slice(6) }],
      '150000',
      'Ayşe Yılmaz',
    ],
    [
      'on a site with the rule off',
      { enabled: false },
      (ref) => [{ amount: '150000', name: 'AYŞE YILMAZ', description: ref }],
      '150000',
      'Ayşe Yılmaz',
    ],
  ];

  it.each(refusals)('does not approve a deposit %s', async (_name, rule, credits, amount, label) => {
    const { site } = await siteWithRule(rule);
    const deposit = await createDeposit(site, amount, label);
    const imported = await importStatement(statement(credits(deposit.referenceNo)));
    expect(imported.autoApproved).toBe(0);
    expect((await intentOf(deposit.intentId)).status).not.toBe('APPROVED');
    expect(await stack.h.ledger.deps.db.outboxEvent.count({ where: { entityId: deposit.intentId } })).toBe(0);
  });

  it('audits the rule like other settings, off by default', async () => {
    const site = await stack.h.createSite();
    expect((await stack.h.ops('GET', `/ops/v1/sites/${site.siteId}`)).body.autoApprove).toEqual({
      enabled: false,
      maxAmount: '0',
      requireSenderMatch: true,
    });
    await stack.h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { autoApprove: RULE });
    const audit = await stack.h.ledger.deps.db.auditLog.findFirstOrThrow({
      where: { entityId: site.siteId, action: 'SITE.SETTINGS_CHANGED' },
    });
    expect(audit.metadata).toEqual({
      before: { autoApproveEnabled: false, autoApproveMaxAmount: '0' },
      after: { autoApproveEnabled: true, autoApproveMaxAmount: '500000' },
    });
  });
});
