import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, validIban, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;

beforeAll(async () => {
  h = await startHarness();
  site = await h.createSite();
});
afterAll(async () => {
  await h?.stop();
});

const counts = async () => ({
  intents: await h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } }),
  withdrawals: await h.ledger.deps.db.withdrawal.count({ where: { siteId: site.siteId } }),
});

async function expectRefused(res: request.Response, field: string, code = 'validation_failed', status = 400): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body.error).toBe(code);
  if (field) expect(res.body.errors).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
}

describe('create-deposit validation (each refused with a precise error, nothing created)', () => {
  const base = { externalUserId: 'user-1', amount: '150000' };
  it.each([
    ['amount as a JSON number', { amount: 150000 }, 'amount'],
    ['amount with decimals', { amount: '1500.00' }, 'amount'],
    ['a negative amount', { amount: '-150000' }, 'amount'],
    ['a zero amount', { amount: '0' }, 'amount'],
    ['an amount with a leading zero', { amount: '0150000' }, 'amount'],
    ['an amount over the maximum', { amount: '100000001' }, 'amount'],
    ['an amount under the minimum', { amount: '999' }, 'amount'],
    ['an amount too long for any integer', { amount: '9'.repeat(40) }, 'amount'],
    ['a currency other than TRY', { currency: 'USD' }, 'currency'],
    ['an unknown field', { couponCode: 'X' }, 'couponCode'],
    ['an externalUserId with spaces', { externalUserId: 'user 1' }, 'externalUserId'],
    ['an externalUserId over 64 characters', { externalUserId: 'u'.repeat(65) }, 'externalUserId'],
    ['a label with a control character', { externalUserLabel: 'bad\u0007label' }, 'externalUserLabel'],
  ])('refuses %s', async (_name, patch, field) => {
    const before = await counts();
    const res = await partner(h.gateway.url, site).createDeposit({ ...base, ...patch });
    await expectRefused(res, field);
    expect(await counts()).toEqual(before);
  });

  it.each([['externalUserId'], ['amount']])('refuses a body without the required %s', async (missing) => {
    const body: Record<string, unknown> = { ...base };
    delete body[missing];
    const res = await partner(h.gateway.url, site).post('/api/v1/external/deposits').set('idempotency-key', randomUUID()).send(body);
    await expectRefused(res, missing);
    expect(res.body.errors).toEqual([{ field: missing, message: 'is required' }]);
  });

  it("respects the site's own amount limits", async () => {
    const narrow = await h.createSite({ minAmount: '5000', maxAmount: '20000' });
    await expectRefused(await partner(h.gateway.url, narrow).createDeposit({ amount: '20001' }), 'amount');
    expect((await partner(h.gateway.url, narrow).createDeposit({ amount: '20000' })).status).toBe(201);
  });

  it('refuses an oversized body with 413 payload_too_large', async () => {
    const before = await counts();
    const res = await partner(h.gateway.url, site).createDeposit({ externalUserLabel: 'x'.repeat(70 * 1024) });
    await expectRefused(res, '', 'payload_too_large', 413);
    expect(await counts()).toEqual(before);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await partner(h.gateway.url, site)
      .post('/api/v1/external/deposits')
      .set('idempotency-key', randomUUID())
      .set('content-type', 'application/json')
      .send('{"amount": "1500');
    await expectRefused(res, '(body)');
  });

  it('refuses a JSON array or string body', async () => {
    for (const body of ['[1,2]', '"text"', 'null']) {
      const res = await partner(h.gateway.url, site)
        .post('/api/v1/external/deposits')
        .set('idempotency-key', randomUUID())
        .set('content-type', 'application/json')
        .send(body);
      await expectRefused(res, '(body)');
    }
  });

  it('refuses a wrong content type with 415 unsupported_media_type', async () => {
    const before = await counts();
    const res = await partner(h.gateway.url, site)
      .post('/api/v1/external/deposits')
      .set('idempotency-key', randomUUID())
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('externalUserId=u&amount=150000');
    await expectRefused(res, '', 'unsupported_media_type', 415);
    const text = await partner(h.gateway.url, site)
      .post('/api/v1/external/deposits')
      .set('idempotency-key', randomUUID())
      .set('content-type', 'text/plain')
      .send(JSON.stringify(base));
    expect(text.status).toBe(415);
    expect(await counts()).toEqual(before);
  });

  it('reports every failing field at once', async () => {
    const res = await partner(h.gateway.url, site).createDeposit({ amount: 5, currency: 'EUR', extra: true });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'currency', 'extra']);
  });
});

describe('create-withdrawal validation', () => {
  it.each([
    ['an invalid IBAN checksum', { targetIban: 'TR330006100519786457841327' }, 'targetIban'],
    ['a non-Turkish IBAN', { targetIban: 'DE89370400440532013000' }, 'targetIban'],
    ['a TR IBAN of the wrong length', { targetIban: 'TR33000610051978645784132' }, 'targetIban'],
    ['a holder name with digits', { targetHolderName: 'Ayşe 123' }, 'targetHolderName'],
    ['a one-letter holder name', { targetHolderName: 'A' }, 'targetHolderName'],
    ['an amount as a number', { amount: 50000 }, 'amount'],
    ['an unknown field', { note: 'hi' }, 'note'],
  ])('refuses %s', async (_name, patch, field) => {
    const before = await counts();
    await expectRefused(await partner(h.gateway.url, site).createWithdrawal(patch), field);
    expect(await counts()).toEqual(before);
  });

  it.each([['targetIban'], ['targetHolderName'], ['amount'], ['externalUserId']])(
    'refuses a body without the required %s',
    async (missing) => {
      const body: Record<string, unknown> = {
        externalUserId: 'u',
        amount: '50000',
        targetIban: validIban(7),
        targetHolderName: 'Çağrı Öztürk',
      };
      delete body[missing];
      const res = await partner(h.gateway.url, site).post('/api/v1/external/withdrawals').set('idempotency-key', randomUUID()).send(body);
      await expectRefused(res, missing);
    },
  );

  it("accepts Turkish letters, spaces and . ' - in the holder name and a spaced lower-case IBAN", async () => {
    const res = await partner(h.gateway.url, site).createWithdrawal({
      targetHolderName: "Şule Gül-İnce O'Brien Jr.",
      targetIban: validIban(99)
        .toLowerCase()
        .replace(/(.{4})/g, '$1 '),
    });
    expect(res.status).toBe(201);
  });
});

describe('unknown routes', () => {
  it('answers an unknown path with a problem-details 404', async () => {
    const res = await partner(h.gateway.url, site).get('/api/v1/external/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });
});
