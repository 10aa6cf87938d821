/**
 * Hostile and odd input on the ops API: leap seconds, NUL bytes, names without letters, upper-case UUIDs,
 * and the caching of answers that carry secrets. Each answers 4xx (or works), never 5xx, and a refused
 * request changes nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { expectStatus } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const LEAP_SECOND = '2026-12-31T23:59:60Z';

describe('timestamps', () => {
  it('refuses a leap-second receivedAt with 400 and records no transfer', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 10000);
    const before = await h.ledger.deps.db.bankTransfer.count();
    const answer = await h.transfer(intent.referenceNo, 10000, { receivedAt: LEAP_SECOND });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'receivedAt', message: expect.stringContaining('ISO 8601') }]);
    expect(await h.ledger.deps.db.bankTransfer.count()).toBe(before);
  });

  it.each(['/intents', '/withdrawals', '/bank-transfers', '/audit', '/events'])(
    'refuses a leap second in the %s filters with 400',
    async (path) => {
      const { h } = setup;
      const answer = await h.ops('GET', `${path}?createdFrom=${encodeURIComponent(LEAP_SECOND)}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('validation_failed');
    },
  );
});

describe('NUL bytes and unpaired surrogates', () => {
  it('refuses a NUL in the login e-mail with 400, not 500', async () => {
    const { h } = setup;
    const answer = await h.ops('POST', '/login', { email: 'a\u0000@kasa.test', password: 'whatever-password' }, '');
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'email', message: 'must not contain a NUL character' }]);
  });

  it('refuses a NUL in a rejection reason and leaves the intent as it was', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 10000);
    expectStatus(await h.transfer(intent.referenceNo, 10000), 201, 'transfer');
    const answer = await h.ops('POST', `/intents/${intent.intentId}/reject`, { reason: 'bad\u0000reason' });
    expect(answer.status).toBe(400);
    expect((await h.ops('GET', `/intents/${intent.intentId}`)).body.status).toBe('PENDING_REVIEW');
  });

  it('refuses an unpaired surrogate in a transfer description', async () => {
    const { h } = setup;
    const answer = await h.transfer('', 10000, { description: 'Havale \ud83d' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'description', message: 'must be valid Unicode (it has an unpaired surrogate)' }]);
  });

  it('refuses a NUL in a query value', async () => {
    const { h } = setup;
    expect((await h.ops('GET', '/intents?referenceNo=%00')).status).toBe(400);
  });
});

describe('names', () => {
  it.each(['  ', "-.'-", '...'])('refuses a site named %j', async (name) => {
    const { h } = setup;
    const before = await h.ledger.deps.db.site.count();
    const answer = await h.ops('POST', '/sites', { slug: `punct-${Date.now()}`, name });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'name', message: 'must be 1 to 140 printable characters with at least one letter' }]);
    expect(await h.ledger.deps.db.site.count()).toBe(before);
  });

  it('refuses an operator named only with punctuation', async () => {
    const { h } = setup;
    const answer = await h.ops('POST', '/operators', {
      email: `p-${Date.now()}@kasa.test`,
      name: '--',
      role: 'REVIEWER',
      password: 'a-long-password-1',
    });
    expect(answer.status).toBe(400);
  });
});

describe('upper-case UUIDs', () => {
  it('find, approve and audit the same record as the lower-case id', async () => {
    const { h, site } = setup;
    const intent = await h.createDeposit(site, 10000);
    expectStatus(await h.transfer(intent.referenceNo, 10000), 201, 'transfer');
    const upper = intent.intentId.toUpperCase();
    expect(expectStatus(await h.ops('GET', `/intents/${upper}`), 200, 'lookup').body.intentId).toBe(intent.intentId);
    expectStatus(await h.ops('POST', `/intents/${upper}/approve`, {}), 200, 'approve');
    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { action: 'INTENT.APPROVED', entityId: intent.intentId } });
    expect(audit).toHaveLength(1);
    expect(expectStatus(await h.ops('GET', `/sites/${site.siteId.toUpperCase()}/balance`), 200, 'balance').body.siteId).toBe(site.siteId);
  });
});

describe('caching', () => {
  it('marks answers that carry secrets no-store: operator login and API key issue', async () => {
    const { h, site } = setup;
    const operator = await h.createOperator('REVIEWER');
    const login = await h.ops('POST', '/login', { email: operator.email, password: operator.password }, '');
    expect(login.status).toBe(201);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const key = await h.ops('POST', `/sites/${site.siteId}/api-keys`, {});
    expect(key.status).toBe(201);
    expect(key.headers.get('cache-control')).toBe('no-store');
    expect((await h.ops('GET', '/intents')).headers.get('cache-control')).toBe('no-store');
    expect((await h.ops('GET', '/nowhere')).headers.get('cache-control')).toBe('no-store');
  });
});
