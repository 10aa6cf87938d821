/**
 * The review desk as a shift uses it: each queue row offers only the controls that fit it, bulk approval never takes
 * late or short money (neither from the page nor from a crafted form), a transfer whose reference is one character
 * off shows its suggested deposit with a one-click Assign in the Unmatched list and on its own page, and these pages
 * read in Turkish.
 */
import { describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });
const SHOTS = '/tmp/shots-review';

const depositOf = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body;

/** A deposit whose money arrived: `received` of `requested`. */
async function paid(requested: number, received = requested, extra: Record<string, string> = {}) {
  const intent = await setup.h.createDeposit(setup.site, requested, extra);
  expect((await setup.h.transfer(intent.referenceNo, received)).status).toBe(201);
  return intent;
}

/** A late arrival: the deposit expired an hour ago, then its money came (exactly as requested). */
async function lateArrival(amount: number) {
  const intent = await setup.h.createDeposit(setup.site, amount);
  await setup.h.ledger.deps.db.deposit.update({ where: { id: intent.intentId }, data: { expiresAt: new Date(Date.now() - 3_600_000) } });
  expect((await setup.h.transfer(intent.referenceNo, amount)).status).toBe(201);
  expect(await depositOf(intent.intentId)).toMatchObject({ status: 'LATE_ARRIVAL', receivedAmount: String(amount) });
  return intent;
}

/**
 * A reference one character off: two different neighbours swapped (the matcher corrects it to the deposit's). Equal
 * neighbours would swap into the reference itself, an exact match.
 */
function nearOf(referenceNo: string): string {
  for (let i = 4; i + 1 < referenceNo.length; i += 1) {
    if (referenceNo[i] !== referenceNo[i + 1]) {
      return `${referenceNo.slice(0, i)}${referenceNo[i + 1]}${referenceNo[i]}${referenceNo.slice(i + 2)}`;
    }
  }
  throw new Error(`no two different neighbours to swap in ${referenceNo}`);
}

/** An unmatched transfer whose description carries `deposit`'s reference one character off. */
async function nearTransfer(deposit: { referenceNo: string }, amount: number) {
  const recorded = await setup.h.transfer(nearOf(deposit.referenceNo), amount);
  expect(recorded.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'no_reference' });
  return recorded.body as { bankTransferId: string; bankTxId: string };
}

/** The `value` attribute of every element `locator` finds. */
async function valuesOf(locator: Locator): Promise<Array<string | null>> {
  return Promise.all((await locator.all()).map((element) => element.getAttribute('value')));
}

const ENGLISH_STOPWORDS = [' the ', ' and ', ' of ', ' to ', ' is ', ' for ', ' with ', ' your '];

/** What a Turkish operator reads on the page: Turkish text and none of the English stopwords. */
async function expectTurkish(page: Page, turkish: string[]): Promise<void> {
  const text = ` ${(await page.locator('body').innerText()).replace(/\s+/g, ' ')} `;
  for (const phrase of turkish) expect(text).toContain(phrase);
  // Each English stopword found, with the words around it, so a failure says where.
  const found = ENGLISH_STOPWORDS.flatMap((word) => {
    const at = text.toLowerCase().indexOf(word);
    return at < 0 ? [] : [text.slice(Math.max(0, at - 50), at + 50)];
  });
  expect(found).toEqual([]);
}

describe('review queue controls', () => {
  it('offers each row only the controls that fit it: the rest where money exceeds, waiting where it is short', async () => {
    const { page } = setup;
    const exact = await paid(41000);
    const excess = await paid(42000, 50000);
    const short = await paid(43000, 30000);
    await page.goto('/review');
    const row = (intent: { intentId: string }) => page.locator(`tr[data-id="${intent.intentId}"]`);
    const options = (intent: { intentId: string }) => valuesOf(row(intent).locator('select[name="userReason"] option'));

    // No rest on an exact match: no "Rest: return to sender", no "Why set aside", no waiting, no "amount differs".
    await expect(row(exact).locator('select[name="remainder"]').count()).resolves.toBe(0);
    await expect(row(exact).locator('input[name="remainder_reason"]').count()).resolves.toBe(0);
    await expect(row(exact).getByRole('button', { name: 'Wait for the rest' }).count()).resolves.toBe(0);
    await expect(options(exact)).resolves.toEqual(['', 'SENDER_NOT_ACCOUNT_HOLDER', 'REFERENCE_MISSING']);

    await expect(row(excess).locator('select[name="remainder"]').count()).resolves.toBe(1);
    await expect(row(excess).locator('input[name="remainder_reason"]').count()).resolves.toBe(1);
    await expect(row(excess).getByRole('button', { name: 'Wait for the rest' }).count()).resolves.toBe(0);
    await expect(options(excess)).resolves.toEqual(['', 'AMOUNT_MISMATCH', 'SENDER_NOT_ACCOUNT_HOLDER', 'REFERENCE_MISSING']);

    await expect(row(short).locator('select[name="remainder"]').count()).resolves.toBe(0);
    await expect(row(short).getByRole('button', { name: 'Wait for the rest' }).count()).resolves.toBe(1);
    await expect(options(short)).resolves.toEqual(['', 'AMOUNT_MISMATCH', 'SENDER_NOT_ACCOUNT_HOLDER', 'REFERENCE_MISSING']);
  });
});

describe('bulk approval never takes late or short money', () => {
  it('offers no checkbox for a late arrival or short money, and "select all" leaves them out', async () => {
    const { page } = setup;
    const exact = await paid(44000);
    const late = await lateArrival(45000);
    const short = await paid(46000, 20000);
    await page.goto('/review');
    await expect(page.locator(`tr[data-id="${exact.intentId}"] input.bulk-select`).count()).resolves.toBe(1);
    await expect(page.locator(`tr[data-id="${late.intentId}"] input.bulk-select`).count()).resolves.toBe(0);
    await expect(page.locator(`tr[data-id="${short.intentId}"] input.bulk-select`).count()).resolves.toBe(0);
    await expect(page.locator(`tr[data-id="${late.intentId}"]`).getAttribute('class')).resolves.not.toContain('exact');
    const boxes = await page.locator('input.bulk-select').count();
    await expect(page.locator('label.select-all').textContent()).resolves.toContain(`(${boxes})`);
    await page.getByLabel(/Select all exact matches/).check();
    const ticked = await valuesOf(page.locator('input.bulk-select:checked'));
    expect(ticked).toContain(exact.intentId);
    expect(ticked).not.toContain(late.intentId);
    expect(ticked).not.toContain(short.intentId);
    await page.getByLabel(/Select all exact matches/).uncheck();
  });

  it('refuses a crafted form naming a late arrival or short money, for that row, with the reason; approves the rest', async () => {
    const { h, page, context } = setup;
    const exact = await paid(47000);
    const late = await lateArrival(48000);
    const short = await paid(49000, 25000);
    await page.goto('/review');
    const csrf = await page.locator('form[data-bulk-form] input[name=_csrf]').inputValue();
    // What a forged page would post: the three ids, as several checkboxes would.
    const form = new URLSearchParams([
      ['_csrf', csrf],
      ['_back', '/review'],
      ['intentId', late.intentId],
      ['intentId', exact.intentId],
      ['intentId', short.intentId],
    ]);
    const answer = await context.request.post('/review/bulk-approve', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: form.toString(),
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(200);
    await page.setContent(await answer.text());
    await expect(page.locator('[data-bulk-summary]').textContent()).resolves.toContain('1 approved, 2 failed');
    const outcome = (intent: { intentId: string }) => page.locator(`tr[data-id="${intent.intentId}"] td[data-label="Outcome"]`);
    await expect(outcome(exact).textContent()).resolves.toBe('approved');
    await expect(outcome(late).textContent()).resolves.toContain(
      'A late arrival (the deposit expired before the money came) is never approved in bulk',
    );
    await expect(outcome(late).textContent()).resolves.toContain('the money came after the deposit expired');
    await expect(outcome(late).locator('strong').getAttribute('title')).resolves.toBe('not_exact_match');
    await expect(outcome(short).textContent()).resolves.toContain('Less money arrived than was requested');

    expect(await depositOf(exact.intentId)).toMatchObject({ status: 'APPROVED' });
    expect(await depositOf(late.intentId)).toMatchObject({ status: 'LATE_ARRIVAL' });
    expect(await depositOf(short.intentId)).toMatchObject({ status: 'PENDING_REVIEW' });
    const db = h.ledger.deps.db;
    for (const refused of [late, short]) {
      await expect(db.auditLog.count({ where: { entityId: refused.intentId, action: 'INTENT.APPROVED' } })).resolves.toBe(0);
      await expect(db.outboxEvent.count({ where: { entityId: refused.intentId, type: 'intent.approved' } })).resolves.toBe(0);
    }
  });

  it('the ledger refuses a late arrival in a bulk approval even when the amount is exact', async () => {
    const { h } = setup;
    const late = await lateArrival(51000);
    const answer = await h.ops('POST', '/intents/bulk-approve', { intentIds: [late.intentId] });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { intentId: late.intentId, ok: false, error: { reason: 'not_exact_match', detail: expect.stringContaining('late arrival') } },
    ]);
    // Approved on its own, by an operator who looked at it, it goes through.
    expect((await h.ops('POST', `/intents/${late.intentId}/approve`, {})).status).toBe(200);
  });
});

describe('near references', () => {
  it('shows the suggestion in the Unmatched list with a one-click Assign, and on the transfer page', async () => {
    const { page } = setup;
    const deposit = await setup.h.createDeposit(setup.site, 52000);
    const transfer = await nearTransfer(deposit, 52000);
    await page.goto('/bank-transfers');
    const row = page.locator(`tr[data-id="${transfer.bankTransferId}"]`);
    const description = await row.locator('td[data-label="Description"]').textContent();
    expect(description).toContain('its reference is one character off');
    expect(description).not.toContain('no reference');
    await expect(row.locator('[data-suggestions]').textContent()).resolves.toMatch(new RegExp(`${deposit.referenceNo}\\s*60 %`));

    await page.goto(`/bank-transfers/${transfer.bankTransferId}`);
    const suggested = page.locator('[data-suggested-deposits]');
    await expect(suggested.isVisible()).resolves.toBe(true);
    await expect(suggested.textContent()).resolves.toContain(deposit.referenceNo);
    await expect(suggested.getByRole('button', { name: 'Assign to this deposit' }).isVisible()).resolves.toBe(true);

    await page.goto('/bank-transfers');
    await page
      .locator(`tr[data-id="${transfer.bankTransferId}"]`)
      .getByRole('button', { name: `Assign to ${deposit.referenceNo}` })
      .click();
    await page.waitForURL(`**/intents/${deposit.intentId}?notice=transfer-assigned`);
    expect(await depositOf(deposit.intentId)).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '52000' });
  });

  it('refuses the one-click Assign without the session CSRF token', async () => {
    const { context } = setup;
    const deposit = await setup.h.createDeposit(setup.site, 53000);
    const transfer = await nearTransfer(deposit, 53000);
    const forged = await context.request.post(`/bank-transfers/${transfer.bankTransferId}/assign`, {
      form: { intent: deposit.intentId, _back: '/bank-transfers' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect(await depositOf(deposit.intentId)).toMatchObject({ status: 'RESERVED' });
  });

  it('names a matched transfer by its deposit reference and site, not by ids', async () => {
    const { page, site } = setup;
    const intent = await paid(54000);
    await page.goto('/bank-transfers?status=MATCHED');
    const row = page.locator('tr', { hasText: intent.referenceNo });
    await expect(row.count()).resolves.toBe(1);
    await expect(row.locator('td').last().textContent()).resolves.toContain(`Site ${site.slug}`);
    const transfer = await row.locator('td[data-label="Bank tx id"] a').getAttribute('href');
    await page.goto(transfer ?? '');
    const fact = page.locator('dt', { hasText: /^Deposit$/ }).locator('xpath=following-sibling::dd[1]');
    await expect(fact.textContent()).resolves.toContain(intent.referenceNo);
    await expect(fact.textContent()).resolves.not.toContain(intent.intentId);
  });
});

describe('in Turkish', () => {
  it('shows the review queue, bulk results, the Unmatched list, a transfer and the record form in Turkish; screenshots', async () => {
    const { h, reviewer } = setup;
    await paid(55000, 55000, { externalUserLabel: 'Zeynep Kaya' });
    await paid(56000, 60000);
    await paid(57000, 30000);
    await lateArrival(58000);
    await h.fund(setup.site, 200000);
    await h.createWithdrawal(setup.site, 45000);
    const deposit = await h.createDeposit(setup.site, 59000, { externalUserLabel: 'Ayşe Yılmaz' });
    const transfer = await nearTransfer(deposit, 59000);

    for (const locale of ['en-US', 'tr-TR'] as const) {
      const lang = locale === 'tr-TR' ? 'tr' : 'en';
      const { context, page } = await loginInBrowser(h.browser, h.console.url, reviewer, '/review', locale);
      try {
        for (const [name, path] of [
          ['review-queue', '/review'],
          ['unmatched', '/bank-transfers'],
        ] as const) {
          await page.setViewportSize({ width: 1280, height: 900 });
          await page.goto(path);
          await page.screenshot({ path: `${SHOTS}/${name}-${lang}-desktop.png`, fullPage: true });
          await page.setViewportSize({ width: 390, height: 844 });
          await page.screenshot({ path: `${SHOTS}/${name}-${lang}-phone-full.png`, fullPage: true });
          // The first rows as the phone shows them (the whole page is too long to read at once).
          await page.locator('table').first().scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/${name}-${lang}-phone.png` });
          // Nothing wider than the phone: no sideways scrolling.
          await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
        }
        if (lang === 'en') continue;
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto('/review');
        await expectTurkish(page, ['İnceleme bekleyen yatırımlar', 'Onayla', 'Reddet', 'Kalanını bekle', 'Kalan: gönderene iade']);
        expect(await axeFindings(page)).toEqual([]);
        await page.goto('/bank-transfers');
        await expectTurkish(page, ['Eşleşmeyenler', 'Önerilen:', `${deposit.referenceNo} yatırımına ata`, 'referansı bir karakter farklı']);
        await page.goto(`/bank-transfers/${transfer.bankTransferId}`);
        await expectTurkish(page, ['Önerilen yatırımlar', 'Bu yatırıma ata', 'Eşleşmeme nedeni']);
        await page.goto('/bank-transfers/record');
        await expectTurkish(page, ['Havale kaydet', 'Gönderen adı', 'Alıcı hesap']);
        const csrf = await page.locator('input[name=_csrf]').first().inputValue();
        const late = await lateArrival(61000);
        const answer = await context.request.post('/review/bulk-approve', {
          form: { _csrf: csrf, _back: '/review', intentId: late.intentId },
          headers: { 'accept-language': 'tr-TR,tr;q=0.9' },
        });
        await page.setContent(await answer.text());
        await expectTurkish(page, ['0 onaylandı, 1 onaylanamadı', 'Geç gelen para']);
      } finally {
        await context.close();
      }
    }
  });
});
