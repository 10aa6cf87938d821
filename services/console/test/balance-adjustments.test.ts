/**
 * Balance adjustments in the console (docs/operations.md, Balance adjustments): an admin proposes one from the list, a
 * second admin applies or rejects it on its page; the proposer is offered no Apply button and, should their own
 * approval reach the ledger anyway (or an admin tied to them press Apply), the refusal reads as words; a reviewer reads
 * the adjustments without forms; the pages read in Turkish.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';
import type { TestOperator, TestSite } from './harness.js';
import { expectTurkish, visibleText } from './i18n-pages.js';

const setup = useConsoleBrowser();

interface Adjustment {
  adjustmentId: string;
  referenceNo: string;
  status: string;
}

/** The ops API's session token of `operator`, who proposes through it as a person (the bootstrap token may not). */
async function tokenOf(operator: TestOperator): Promise<string> {
  const session = await setup.h.ops('POST', '/login', { email: operator.email, password: operator.password });
  expect(session.status).toBe(201);
  return session.body.token as string;
}

async function propose(site: TestSite, by: TestOperator, direction: 'credit' | 'debit', amount: string): Promise<Adjustment> {
  const body = { direction, amount, reason: `Ticket ${randomUUID().slice(0, 8)}` };
  const proposed = await setup.h.ops('POST', `/sites/${site.siteId}/balance-adjustments`, body, await tokenOf(by));
  expect(proposed.status).toBe(201);
  return proposed.body as unknown as Adjustment;
}

const adjustmentOf = async (id: string) => (await setup.h.ops('GET', `/balance-adjustments/${id}`)).body;
const availableOf = async (site: TestSite) => (await setup.h.ops('GET', `/sites/${site.siteId}/balance`)).body.available;

/** The text of a fact of a record's page: the `dd` after the `dt` saying `label`. */
const fact = (page: Page, label: string) =>
  page.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]').innerText();

describe('balance adjustments', () => {
  it('are proposed by one admin from the list and applied by a second, moving the balance', async () => {
    const { h, admin, site } = setup;
    const second = await h.createOperator('ADMIN');
    const before = await availableOf(site);

    const a = await h.login(admin);
    let adjustmentId = '';
    try {
      await a.page.goto('/balance-adjustments');
      await a.page.locator('select[name=siteId]').selectOption(site.siteId);
      await a.page.locator('select[name=direction]').selectOption('credit');
      await a.page.getByLabel('Amount in lira (TRY)').fill('1.250,50');
      await a.page.locator('input[name=reason]').fill('November fee charged twice (ticket 4711)');
      await a.page.getByRole('button', { name: 'Propose', exact: true }).click();
      await a.page.waitForURL('**/balance-adjustments/*?notice=adjustment-proposed');
      adjustmentId = new URL(a.page.url()).pathname.split('/').pop() as string;
      const main = await a.page.locator('main').innerText();
      expect(main).toContain('Adjustment proposed; nothing is posted until a second admin applies it.');
      await expect(fact(a.page, 'Amount')).resolves.toBe('1.250,50 ₺');
      await expect(fact(a.page, 'Direction')).resolves.toBe('Credit: adds to what the service owes the site');
      await expect(fact(a.page, 'Proposed by')).resolves.toContain(admin.email);
      await expect(fact(a.page, 'Reason')).resolves.toBe('November fee charged twice (ticket 4711)');
      // The proposer is told, and given no Apply button; withdrawing by rejecting stays open to them.
      expect(main).toContain('You proposed this adjustment: a different admin must apply it.');
      await expect(a.page.getByRole('button', { name: 'Apply' }).count()).resolves.toBe(0);
      await expect(a.page.getByRole('button', { name: 'Reject' }).count()).resolves.toBe(1);
      expect(await axeFindings(a.page)).toEqual([]);

      // The queue, oldest first: the row names the site, reference, direction, amount in lira and proposer.
      await a.page.goto('/balance-adjustments');
      const row = a.page.locator(`tr[data-id="${adjustmentId}"]`);
      const cells = await row.innerText();
      for (const words of [site.slug, 'credit', '1.250,50 ₺', admin.email, 'pending review']) expect(cells).toContain(words);
      expect(await axeFindings(a.page)).toEqual([]);

      // The dashboard counts what waits for a second admin and links the oldest.
      await a.page.goto('/');
      const card = a.page.locator('.queue-card[data-queue="adjustmentsToApply"]');
      const desk = (await h.ops('GET', '/dashboard')).body.adjustmentsToApply as { count: number; oldestId: string };
      expect(desk.count).toBeGreaterThan(0);
      await expect(card.locator('.count').textContent()).resolves.toBe(String(desk.count));
      await expect(card.getByRole('link', { name: 'Adjustments to apply' }).getAttribute('href')).resolves.toBe(
        '/balance-adjustments?status=PENDING_REVIEW',
      );
    } finally {
      await a.context.close();
    }
    expect(await availableOf(site)).toBe(before);

    const b = await h.login(second);
    try {
      await b.page.goto(`/balance-adjustments/${adjustmentId}`);
      await b.page.getByRole('button', { name: 'Apply' }).click();
      await b.page.waitForURL(`**/balance-adjustments/${adjustmentId}?notice=adjustment-applied`);
      await expect(b.page.locator('main').innerText()).resolves.toContain("Adjustment applied: posted to the site's balance");
      await expect(fact(b.page, 'Status')).resolves.toBe('applied');
      await expect(fact(b.page, 'Decided by')).resolves.toBe(second.email);
      await expect(b.page.getByRole('button', { name: /Apply|Reject/ }).count()).resolves.toBe(0);
      await b.page.goto('/balance-adjustments?status=APPLIED');
      await expect(b.page.locator(`tr[data-id="${adjustmentId}"]`).count()).resolves.toBe(1);
      // The balances and the site's page show what adjustments added, so available still adds up for operators.
      await b.page.goto('/balances');
      await expect(b.page.locator(`tr[data-id="${site.siteId}"]`).innerText()).resolves.toContain('1.250,50');
      await b.page.goto(`/sites/${site.siteId}`);
      await expect(fact(b.page, 'Adjusted in total (balance adjustments)')).resolves.toBe('1.250,50 ₺');
    } finally {
      await b.context.close();
    }
    expect(await adjustmentOf(adjustmentId)).toMatchObject({ status: 'APPLIED', decidedByOperatorId: second.operatorId });
    expect(BigInt(await availableOf(site))).toBe(BigInt(before) + 125050n);
  });

  it('are refused in words to their proposer, to an admin tied to them, and for a debit past the balance', async () => {
    const { h, admin } = setup;
    const site = await h.createSite();
    const adjustment = await propose(site, admin, 'credit', '20000');
    // An admin the proposer created is tied to them: the ledger refuses their approval too.
    const email = `tied-${randomUUID()}@kasa.test`;
    const password = `pw-${randomUUID()}`;
    const created = await h.ops('POST', '/operators', { email, name: 'Tied admin', role: 'ADMIN', password }, await tokenOf(admin));
    expect(created.status).toBe(201);
    const tied = { operatorId: created.body.operatorId as string, email, password };

    const own = await h.login(admin);
    try {
      // No button is offered; a form posted all the same (an old tab, a crafted request) gets the readable refusal.
      await own.page.goto(`/balance-adjustments/${adjustment.adjustmentId}`);
      const csrf = await own.page.locator('input[name=_csrf]').first().inputValue();
      const refused = await own.page.request.post(`/balance-adjustments/${adjustment.adjustmentId}/approve`, {
        form: { _csrf: csrf, _back: `/balance-adjustments/${adjustment.adjustmentId}` },
      });
      expect(refused.status()).toBe(409);
      const text = visibleText(await refused.text());
      expect(text).toContain('Two different people must approve this: not whoever gave its first approval or proposed it');
      expect(text).toContain('You proposed this balance adjustment; a different operator must apply it');
    } finally {
      await own.context.close();
    }

    const t = await h.login(tied);
    try {
      await t.page.goto(`/balance-adjustments/${adjustment.adjustmentId}`);
      await t.page.getByRole('button', { name: 'Apply' }).click();
      await expect(t.page.locator('section.error h2').textContent()).resolves.toMatch(/^Two different people must approve this/);
      await expect(t.page.locator('section.error').innerText()).resolves.toContain(`${admin.email} proposed this balance adjustment`);
      expect(await axeFindings(t.page)).toEqual([]);
    } finally {
      await t.context.close();
    }
    expect(await adjustmentOf(adjustment.adjustmentId)).toMatchObject({ status: 'PENDING_REVIEW', decidedByOperatorId: null });

    // A debit past what the site has available: the second admin is told why.
    const debit = await propose(site, admin, 'debit', '100000');
    const second = await h.createOperator('ADMIN');
    const b = await h.login(second);
    try {
      await b.page.goto(`/balance-adjustments/${debit.adjustmentId}`);
      await expect(b.page.locator('form[data-confirm^="Apply a debit of 1.000,00 ₺"]').count()).resolves.toBe(1);
      await b.page.getByRole('button', { name: 'Apply' }).click();
      await expect(b.page.locator('section.error h2').textContent()).resolves.toBe("The site's available balance does not cover this.");
    } finally {
      await b.context.close();
    }
    expect(await adjustmentOf(debit.adjustmentId)).toMatchObject({ status: 'PENDING_REVIEW' });
  });

  it('are rejected with a reason by an admin, and shown to a reviewer without any form', async () => {
    const { h, admin, reviewer } = setup;
    const site = await h.createSite();
    const adjustment = await propose(site, admin, 'debit', '5000');

    const r = await h.login(reviewer);
    try {
      await r.page.goto(`/balance-adjustments/${adjustment.adjustmentId}`);
      const main = await r.page.locator('main').innerText();
      expect(main).toContain('Waiting for a second admin to apply or reject it.');
      expect(main).toContain('Proposing, applying and rejecting an adjustment need the admin role.');
      await expect(r.page.locator('main form').count()).resolves.toBe(0);
      await r.page.goto('/balance-adjustments');
      await expect(r.page.locator(`tr[data-id="${adjustment.adjustmentId}"]`).count()).resolves.toBe(1);
      await expect(r.page.locator('main form').count()).resolves.toBe(0);
      await expect(r.page.getByRole('heading', { name: 'Propose an adjustment' }).count()).resolves.toBe(0);
      // The ledger refuses a reviewer's decision whatever the page offers.
      expect(
        (await h.ops('POST', `/balance-adjustments/${adjustment.adjustmentId}/reject`, { reason: 'x' }, await tokenOf(reviewer))).status,
      ).toBe(403);
    } finally {
      await r.context.close();
    }

    const second = await h.createOperator('ADMIN');
    const b = await h.login(second);
    try {
      await b.page.goto(`/balance-adjustments/${adjustment.adjustmentId}`);
      await b.page.getByLabel('Reason for rejecting').fill('The fee was charged once; the second line is its reversal');
      await b.page.getByRole('button', { name: 'Reject' }).click();
      await b.page.waitForURL(`**/balance-adjustments/${adjustment.adjustmentId}?notice=adjustment-rejected`);
      await expect(fact(b.page, 'Status')).resolves.toBe('rejected');
      await expect(fact(b.page, 'Rejected at')).resolves.toContain('The fee was charged once; the second line is its reversal');
      await b.page.goto('/balance-adjustments?status=REJECTED');
      await expect(b.page.locator(`tr[data-id="${adjustment.adjustmentId}"]`).count()).resolves.toBe(1);
      // The audit log names the steps in words and links the adjustment's page.
      await b.page.goto(`/audit?entityId=${adjustment.adjustmentId}`);
      const audit = await b.page.locator('main').innerText();
      expect(audit).toContain('Balance adjustment proposed');
      expect(audit).toContain('Balance adjustment rejected');
      await expect(b.page.locator(`main a[href="/balance-adjustments/${adjustment.adjustmentId}"]`).count()).resolves.toBeGreaterThan(0);
    } finally {
      await b.context.close();
    }
    expect(await adjustmentOf(adjustment.adjustmentId)).toMatchObject({ status: 'REJECTED', decidedByOperatorId: second.operatorId });
  });

  it('are not proposed with an amount that is not one, and the form says why', async () => {
    const { h, admin, site } = setup;
    const { context, page } = await h.login(admin);
    try {
      await page.goto('/balance-adjustments');
      await page.locator('select[name=siteId]').selectOption(site.siteId);
      await page.getByLabel('Amount in lira (TRY)').fill('1.500');
      await page.locator('input[name=reason]').fill('Typed two ways');
      await page.getByRole('button', { name: 'Propose', exact: true }).click();
      const error = page.locator('section.error');
      await expect(error.locator('h2').textContent()).resolves.toBe('Check what you entered.');
      const said = await error.innerText();
      expect(said).toContain('Nothing was proposed: correct the fields below and try again.');
      expect(said).toContain('can be read two ways');
    } finally {
      await context.close();
    }
    const listed = await h.ops('GET', `/balance-adjustments?siteId=${site.siteId}`);
    expect(JSON.stringify(listed.body.data)).not.toContain('Typed two ways');
  });

  it('read in Turkish: the list, the form and an adjustment waiting for its second admin', async () => {
    const { h, admin, site } = setup;
    const proposer = await h.createOperator('ADMIN');
    const adjustment = await propose(site, proposer, 'credit', '15000');
    const { context, page } = await h.login(admin);
    try {
      const get = async (path: string) => {
        const res = await page.request.get(path, { headers: { 'accept-language': 'tr-TR,tr;q=0.9' } });
        expect(res.status()).toBe(200);
        return res.text();
      };
      const list = await get('/balance-adjustments');
      const text = expectTurkish(list);
      expect(list).toContain('<title>Bakiye düzeltmeleri · Kasa Konsol</title>');
      for (const words of [
        'İncelenecek',
        'Uygulandı',
        'Yön',
        'Öneren',
        'Düzeltme öner',
        'Lira cinsinden tutar (TRY)',
        'alacak',
        '150,00 ₺',
      ])
        expect(text).toContain(words);
      expect(list).toContain('Alacak: bakiyeye ekle');

      const detail = await get(`/balance-adjustments/${adjustment.adjustmentId}`);
      const facts = expectTurkish(detail);
      expect(detail).toContain(`<title>Bakiye düzeltmesi ${adjustment.referenceNo} · Kasa Konsol</title>`);
      for (const words of ['Düzeltme no', 'Alacak: hizmetin siteye borcuna eklenir', 'Her zaman dört göz', 'Uygula', 'Reddet', 'Adımları'])
        expect(facts).toContain(words);
      expect(detail).toContain(`data-confirm="${site.slug} sitesine 150,00 ₺ alacak uygulansın mı? Sitenin bakiyesine hemen işlenir."`);
      expect(detail).toContain('placeholder="Red gerekçesi"');

      // The audit log's action filter suggests its actions, read from their words in the catalogue.
      const audit = await get('/audit');
      expect(audit).toContain('<option value="BALANCE_ADJUSTMENT.APPLIED">Bakiye düzeltmesi uygulandı</option>');
      expect(audit).toContain('<option value="WITHDRAWAL.APPROVED">');
    } finally {
      await context.close();
    }
  });
});
