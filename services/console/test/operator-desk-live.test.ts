/**
 * The operators' desk at shift speed, in Chromium: the console opens on the dashboard; counts follow the ledger
 * without a reload; a deposit is approved with the keyboard alone (confirm included); exact matches are approved in
 * bulk with every item's own outcome; the review queue shows who paid and how many transfers; and every page this
 * changed is clean under axe-core.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { eventually } from '@kasa/testkit';
import type { Page } from 'playwright-core';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-desk';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** A deposit whose money arrived, exactly (or `received`) as requested, from `senderName` when given. */
async function paidDeposit(amount: number, received = amount, extra: Record<string, string> = {}) {
  const intent = await setup.h.createDeposit(setup.site, amount, extra);
  expect((await setup.h.transfer(intent.referenceNo, received)).status).toBe(201);
  return intent;
}

const statusOf = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body.status as string;

/** Marks the document, so a later check can tell the page was updated in place, not reloaded. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate("document.documentElement.setAttribute('data-test-loaded', 'once')");
}
// Strings, not functions: the tests compile without the DOM's types.
const sameDocument = (page: Page) => page.evaluate("document.documentElement.getAttribute('data-test-loaded') === 'once'");

/** The `data-id` of the row that has the keyboard focus, if any. */
const focusedRowId = (page: Page) =>
  page.evaluate("document.activeElement?.closest('tr[data-id]')?.getAttribute('data-id') ?? null") as Promise<string | null>;

/** Presses `j` until the keyboard focus is on the row of `id` (the queue is oldest first, other tests' rows above it). */
async function focusRowByKeyboard(page: Page, id: string): Promise<void> {
  const rows = await page.locator('main table.list tbody tr[data-id]').count();
  for (let n = 0; n < rows; n += 1) {
    await page.keyboard.press('j');
    if ((await focusedRowId(page)) === id) return;
  }
  throw new Error(`row ${id} never got the keyboard focus`);
}

describe('landing', () => {
  it('opens on the dashboard after login, and / is the dashboard', async () => {
    const { h, admin } = setup;
    const context = await h.browser.newContext({ baseURL: h.console.url });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.locator('h1').textContent()).resolves.toBe('Dashboard');
    await expect(page.locator('nav a[aria-current="page"]').textContent()).resolves.toContain('Dashboard');
    await context.close();
  });
});

describe('live counts', () => {
  it('answers the dashboard counts as JSON to a logged-in operator only', async () => {
    const { h, page } = setup;
    const live = await page.request.get('/live/counts');
    expect(live.status()).toBe(200);
    expect(live.headers()['cache-control']).toBe('no-store');
    const counts = await live.json();
    const dashboard = (await h.ops('GET', '/dashboard')).body;
    expect(counts.queues.depositsToReview).toBe(dashboard.depositsToReview.count);
    expect(counts.review).toBe(dashboard.depositsToReview.count + dashboard.lateArrivals.count + dashboard.withdrawalsToReview.count);
    const anonymous = await fetch(`${h.console.url}/live/counts`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login?next=%2Flive%2Fcounts');
  });

  it('updates the queue count, the title and the "new" bar when a transfer is recorded, without a reload, and marks the new row', async () => {
    const { page } = setup;
    // At least one waiting, so the count shows from the first poll on (it is hidden at zero).
    await paidDeposit(32200);
    await page.goto('/review');
    await markDocument(page);
    const nav = page.locator('header nav [data-live-count="review"]');
    const before = Number(await eventually(async () => (await nav.isVisible()) && nav.textContent(), 15_000, 'the first count'));
    await expect(page.title()).resolves.toBe(`(${before}) Review queue · Kasa Console`);
    await expect(page.locator('[data-live-bar]').isHidden()).resolves.toBe(true);

    const arrived = await paidDeposit(33300);

    await eventually(async () => (await nav.textContent()) === String(before + 1), 20_000, 'the count to grow');
    expect(await sameDocument(page)).toBe(true);
    await expect(page.title()).resolves.toBe(`(${before + 1}) Review queue · Kasa Console`);
    const bar = page.locator('[data-live-bar]');
    await expect(bar.isVisible()).resolves.toBe(true);
    await expect(bar.textContent()).resolves.toContain('1 new item in the review queue');
    await expect(page.locator('[data-live-announce]').textContent()).resolves.toContain('1 new');
    // The rows under the operator's cursor did not move: the newcomer is not in the table until asked for.
    await expect(page.locator(`tr[data-id="${arrived.intentId}"]`).count()).resolves.toBe(0);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/review-live-bar.png`, fullPage: true });

    await bar.getByRole('link', { name: 'Show' }).click();
    await page.waitForURL(/\/review\?newSince=/);
    const row = page.locator(`tr[data-id="${arrived.intentId}"]`);
    await expect(row.getAttribute('class')).resolves.toContain('new');
    await expect(row.locator('.new-mark').textContent()).resolves.toBe('new');
  });

  it('updates the dashboard card and its "As of" in place', async () => {
    const { page } = setup;
    await page.goto('/');
    await markDocument(page);
    const count = page.locator('[data-live-count="depositsToReview"]');
    const before = Number((await count.textContent())?.trim());
    const asOf = await page.locator('[data-live-asof]').getAttribute('datetime');

    await paidDeposit(44400);

    await eventually(async () => (await count.textContent())?.startsWith(String(before + 1)), 20_000, 'the card to count it');
    expect(await sameDocument(page)).toBe(true);
    await expect(count.locator('.delta').textContent()).resolves.toBe('+1 since loaded');
    await expect(page.locator('[data-live-asof]').getAttribute('datetime')).resolves.not.toBe(asOf);
    await expect(page.title()).resolves.toMatch(/^\(\d+\) Dashboard · Kasa Console$/);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/dashboard-live.png`, fullPage: true });
  });
});

describe('keyboard', () => {
  it('approves a deposit with the keyboard alone: move, approve, confirm with Enter; Esc cancels', async () => {
    const { page } = setup;
    const intent = await paidDeposit(55500);
    await page.goto('/review');

    await focusRowByKeyboard(page, intent.intentId);
    await expect(page.locator(`tr[data-id="${intent.intentId}"]`).getAttribute('class')).resolves.toContain('kb-current');
    // Esc cancels: nothing is sent, the focus is back on the row.
    await page.keyboard.press('a');
    const dialog = page.locator('#confirm-dialog');
    await expect(dialog.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog.isVisible()).resolves.toBe(false);
    expect(await focusedRowId(page)).toBe(intent.intentId);
    expect(await statusOf(intent.intentId)).toBe('PENDING_REVIEW');

    await page.keyboard.press('a');
    await expect(page.locator('#confirm-dialog-message').textContent()).resolves.toContain(`Approve deposit ${intent.referenceNo}?`);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/keyboard-confirm.png` });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/review?notice=intent-approved');
    expect(await statusOf(intent.intentId)).toBe('APPROVED');
  });

  it('answers the question being asked, not one closed a moment before (its close event comes after)', async () => {
    const { page } = setup;
    const intent = await paidDeposit(56600);
    await page.goto('/review');
    await focusRowByKeyboard(page, intent.intentId);
    // Asked, closed (as Esc does: the close event is queued) and asked again, before that event runs.
    await page.evaluate(`{
      const press = () => document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      press();
      document.getElementById('confirm-dialog').close();
      press();
    }`);
    await expect(page.locator('#confirm-dialog').isVisible()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/review?notice=intent-approved');
    expect(await statusOf(intent.intentId)).toBe('APPROVED');
  });

  it('rejects with r (the reason field focused, confirmed in the page), searches with /, and lists the keys with ?', async () => {
    const { page } = setup;
    const intent = await paidDeposit(56600);
    await page.goto('/review');
    await focusRowByKeyboard(page, intent.intentId);
    await page.keyboard.press('r');
    await expect(page.evaluate('document.activeElement?.name')).resolves.toBe('reason');
    // Typing in the field is text, not shortcuts.
    await page.keyboard.type('Paid by a stranger, ask again');
    await page.keyboard.press('Enter');
    await expect(page.locator('#confirm-dialog-message').textContent()).resolves.toBe(`Reject deposit ${intent.referenceNo}?`);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/review?notice=intent-rejected');
    expect((await setup.h.ops('GET', `/intents/${intent.intentId}`)).body).toMatchObject({
      status: 'REJECTED',
      rejectedReason: 'Paid by a stranger, ask again',
    });

    await page.keyboard.press('/');
    await expect(page.evaluate("document.activeElement?.getAttribute('type')")).resolves.toBe('search');
    await page.keyboard.press('Escape');
    await page.evaluate('document.activeElement?.blur()');
    await page.keyboard.press('?');
    const help = page.locator('#shortcut-help');
    await expect(help.isVisible()).resolves.toBe(true);
    await expect(help.textContent()).resolves.toContain('Approve the row');
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/keyboard-help.png` });
    await page.keyboard.press('Escape');
    await expect(help.isVisible()).resolves.toBe(false);

    await page.keyboard.press('g');
    await page.keyboard.press('d');
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('bulk approval', () => {
  it('approves four of five selected exact matches, each with its own audit entry and event, and reports the fifth', async () => {
    const { h, page, reviewer } = setup;
    const five = [];
    for (const amount of [61000, 62000, 63000, 64000, 65000]) five.push(await paidDeposit(amount));
    const short = await paidDeposit(70000, 50000);
    await page.goto('/review');
    // Only exact matches can be selected.
    await expect(page.locator(`tr[data-id="${short.intentId}"] input.bulk-select`).count()).resolves.toBe(0);
    for (const intent of five) await page.locator(`tr[data-id="${intent.intentId}"] input.bulk-select`).check();
    await expect(page.getByRole('button', { name: 'Approve selected (5)' }).isEnabled()).resolves.toBe(true);
    // Decided elsewhere after the page loaded: that one must fail on its own.
    const gone = five[2]!;
    expect((await h.ops('POST', `/intents/${gone.intentId}/reject`, { reason: 'Decided by another operator' })).status).toBe(200);

    await page.getByRole('button', { name: 'Approve selected (5)' }).click();
    await expect(page.locator('#confirm-dialog-message').textContent()).resolves.toContain('Approve 5 deposits, 3.150,00 ₺ in total?');
    await page.screenshot({ path: `${SHOTS}/bulk-confirm.png` });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/review/bulk-approve');

    await expect(page.locator('[data-bulk-summary]').textContent()).resolves.toContain('4 approved, 1 failed');
    const failed = page.locator(`tr[data-id="${gone.intentId}"]`);
    await expect(failed.textContent()).resolves.toContain('Someone else already acted on this record.');
    await expect(failed.locator('td[data-label="Outcome"] strong').getAttribute('title')).resolves.toBe('invalid_transition');
    await expect(failed.textContent()).resolves.toContain(gone.referenceNo);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/bulk-results.png`, fullPage: true });

    const db = h.ledger.deps.db;
    for (const intent of five.filter((i) => i !== gone)) {
      await expect(page.locator(`tr[data-id="${intent.intentId}"] td[data-label="Outcome"]`).textContent()).resolves.toBe('approved');
      expect(await statusOf(intent.intentId)).toBe('APPROVED');
      const audits = await db.auditLog.findMany({ where: { entityId: intent.intentId, action: 'INTENT.APPROVED' } });
      expect(audits).toHaveLength(1);
      expect(audits[0]?.actorId).toBe(reviewer.operatorId);
      await expect(db.outboxEvent.count({ where: { entityId: intent.intentId, type: 'intent.approved' } })).resolves.toBe(1);
    }
    expect(await statusOf(gone.intentId)).toBe('REJECTED');
    await expect(db.auditLog.count({ where: { entityId: gone.intentId, action: 'INTENT.APPROVED' } })).resolves.toBe(0);
    await expect(db.outboxEvent.count({ where: { entityId: gone.intentId, type: 'intent.approved' } })).resolves.toBe(0);
  });

  it('selects every exact match with one control, the count on the button', async () => {
    const { page } = setup;
    await paidDeposit(71000);
    await page.goto('/review');
    const exact = await page.locator('input.bulk-select').count();
    expect(exact).toBeGreaterThan(0);
    await page.getByLabel(/Select all exact matches/).check();
    await expect(page.getByRole('button', { name: `Approve selected (${exact})` }).isEnabled()).resolves.toBe(true);
    await page.getByLabel(/Select all exact matches/).uncheck();
    await expect(page.getByRole('button', { name: 'Approve selected (0)' }).isDisabled()).resolves.toBe(true);
  });
});

describe('review queue columns', () => {
  it('shows the senders and how many transfers paid a deposit, the user label and id apart', async () => {
    const { h, page } = setup;
    const user = `user-${randomUUID().slice(0, 8)}`;
    const intent = await h.createDeposit(setup.site, 90000, { externalUserId: user, externalUserLabel: 'Zeynep Kaya' });
    for (const [amount, senderName] of [
      ['40000', 'ZEYNEP KAYA'],
      ['50000', 'ALI KAYA'],
    ] as const) {
      const sent = await h.ops('POST', '/bank-transfers', {
        bankTxId: `desk-${randomUUID()}`,
        amount,
        senderName,
        senderIban: 'TR330006100519786457841326',
        description: intent.referenceNo,
        receivedAt: new Date().toISOString(),
      });
      expect(sent.status).toBe(201);
    }
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`).textContent();
    await expect(cell('User')).resolves.toBe('Zeynep Kaya');
    await expect(cell('User id')).resolves.toBe(user);
    await expect(cell('Sender')).resolves.toContain('ZEYNEP KAYA');
    await expect(cell('Sender')).resolves.toContain('ALI KAYA');
    await expect(cell('Transfers')).resolves.toBe('2');
    await expect(cell('Requested')).resolves.toBe('900,00 ₺');
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/review-queue.png`, fullPage: true });
  });
});
