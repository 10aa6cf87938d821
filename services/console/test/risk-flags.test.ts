/**
 * Risk flags in the console, in Chromium: a deposit paid by someone whose name is not the user's is flagged by the
 * ledger's risk worker; an admin finds it in the queue with its review deadline (overdue marked once past it), reads its
 * facts, reviews it and sees it closed; the report for the authority downloads as a CSV with the reported flag; a
 * reviewer has no Risk flags entry and is refused the pages.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { bankTransferBody, makeTrIban } from '@kasa/testkit';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';
import { expectTurkish } from './i18n-pages.js';

const SHOTS = '/tmp/shots-risk';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

interface Flag {
  id: string;
  rule: string;
  subjectType: 'deposit' | 'bank_transfer';
  subjectId: string;
  externalUserId: string | null;
  status: 'OPEN' | 'CLOSED';
}

/** An Istanbul calendar day, `YYYY-MM-DD`, as the report's form takes it. */
function istanbulDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * A deposit for `externalUserId` named "Elif Şahin" by the partner, paid and approved from "Mehmet Kaya"'s account: the
 * name_mismatch rule's case. Waits for the ledger's risk worker to flag it and answers the flag as the ops API lists it.
 */
async function mismatchedDeposit(externalUserId: string, senderIban: string): Promise<Flag> {
  const { h, site } = setup;
  const deposit = await h.createDeposit(site, 42000, { externalUserId, externalUserLabel: 'Elif Şahin' });
  const transfer = await h.ops(
    'POST',
    '/bank-transfers',
    bankTransferBody(deposit.referenceNo, 42000, { senderName: 'Mehmet Kaya', senderIban }),
  );
  expect(transfer.status).toBe(201);
  const approved = await h.ops('POST', `/intents/${deposit.intentId}/approve`, {});
  expect(approved.status).toBe(200);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listed = await h.ops('GET', `/risk-flags?rule=name_mismatch&siteId=${site.siteId}`);
    expect(listed.status).toBe(200);
    const flag = (listed.body.data as Flag[]).find((f) => f.externalUserId === externalUserId);
    if (flag) return flag;
    if (Date.now() > deadline) throw new Error(`no name_mismatch flag for ${externalUserId} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('the risk flags pages', () => {
  it('lets an admin find a flag with its deadline, review it and see it closed, and export the reported ones', async () => {
    const { h, page, admin } = setup;
    const senderIban = makeTrIban(7_100_026);
    const flag = await mismatchedDeposit('risk-user-1', senderIban);

    await page.goto('/risk-flags');
    await expect(page.locator('nav a[href="/risk-flags"]').getAttribute('aria-current')).resolves.toBe('page');
    const row = page.locator(`tr[data-id="${flag.id}"]`);
    const text = await row.innerText();
    expect(text).toContain('Sender name differs from the user');
    expect(text).toContain(setup.site.slug);
    expect(text).toContain('risk-user-1');
    expect(text).toMatch(/due in (9|10) days/);
    expect(text).not.toContain('OVERDUE');
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/console-risk-flags.png`, fullPage: true });

    // Past its deadline (a review forgotten for two days) the flag is marked overdue, in its row and on its page.
    await h.ledger.deps.db.$executeRawUnsafe(
      `UPDATE risk_flags SET due_at = now() - interval '2 days 1 hour' WHERE id = $1::uuid`,
      flag.id,
    );
    await page.goto('/risk-flags?rule=name_mismatch');
    const overdueRow = page.locator(`tr[data-id="${flag.id}"]`);
    await expect(overdueRow.innerText()).resolves.toMatch(/OVERDUE[\s\S]*overdue by 2 days/);
    await expect(overdueRow.getAttribute('class')).resolves.toContain('overdue');
    // Another rule's filter leaves it out.
    await page.goto('/risk-flags?rule=velocity');
    await expect(page.locator(`tr[data-id="${flag.id}"]`).count()).resolves.toBe(0);

    await page.goto('/risk-flags');
    await page.locator(`tr[data-id="${flag.id}"]`).getByRole('link', { name: 'Open flag' }).click();
    await page.waitForURL(`**/risk-flags/${flag.id}`);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Mehmet Kaya');
    expect(main).toContain('Elif Şahin');
    expect(main).toContain('OVERDUE');
    const subject = page.locator(`main a[href="/${flag.subjectType === 'deposit' ? 'intents' : 'bank-transfers'}/${flag.subjectId}"]`);
    await expect(subject.count()).resolves.toBe(1);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/console-risk-flag.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/console-risk-flag-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The note is required: the browser keeps the form until there is one.
    await page.getByLabel('Reported to MASAK as suspicious').check();
    await page.getByLabel('Note: what you checked and why').fill('Sender unknown to the user; STR filed on the MASAK system.');
    await page.getByRole('button', { name: 'Close the flag' }).click();
    await page.waitForURL(`**/risk-flags/${flag.id}?notice=risk-flag-reviewed`);
    const closed = await page.locator('main').innerText();
    expect(closed).toContain('Reported');
    expect(closed).toContain('STR filed on the MASAK system');
    expect(closed).toContain(admin.email);
    await expect(page.getByRole('button', { name: 'Close the flag' }).count()).resolves.toBe(0);
    const read = await h.ops('GET', `/risk-flags/${flag.id}`);
    expect(read.body).toMatchObject({ status: 'CLOSED', outcome: 'reported', reviewedBy: { email: admin.email } });

    // Reviewed: gone from the queue, listed among the reviewed ones.
    await page.goto('/risk-flags');
    await expect(page.locator(`tr[data-id="${flag.id}"]`).count()).resolves.toBe(0);
    await page.goto('/risk-flags?status=CLOSED');
    await expect(page.locator(`tr[data-id="${flag.id}"]`).innerText()).resolves.toContain('Reported');

    // A second review of the closed flag (a form left open in another tab) is refused and changes nothing.
    const again = await page.request.post(`/risk-flags/${flag.id}/review`, {
      form: { _csrf: (await page.locator('input[name=_csrf]').first().inputValue()) ?? '', outcome: 'no_action', note: 'again' },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(409);
    expect((await h.ops('GET', `/risk-flags/${flag.id}`)).body.outcome).toBe('reported');

    // The report for today holds the reported flag, with the sender's full IBAN for the authority.
    await page.goto('/risk-flags');
    const today = istanbulDay(new Date());
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByLabel('To', { exact: true }).fill(today);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines.length).toBe(2);
    expect(lines[1]).toContain(flag.id);
    expect(lines[1]).toContain(senderIban);
    expect(lines[1]).toContain('Mehmet Kaya');

    // Days the ledger refuses (the end before the start) are its 400, shown as an error page, not a file.
    const refused = await page.request.get(`/risk-flags/report?from=${today}&to=2020-01-01`);
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-type']).toContain('text/html');
  });

  it('reads in Turkish for a Turkish browser', async () => {
    const { h } = setup;
    await mismatchedDeposit('risk-user-tr', makeTrIban(7_100_027));
    const turkish = await loginInBrowser(h.browser, h.console.url, setup.admin, '/risk-flags', 'tr-TR');
    try {
      const answer = await turkish.page.request.get('/risk-flags', { headers: { 'Accept-Language': 'tr-TR,tr;q=0.9' } });
      const text = expectTurkish(await answer.text());
      expect(text).toContain('Gönderen adı kullanıcıdan farklı');
      expect(text).toContain('Makam için rapor');
      await turkish.page.setViewportSize({ width: 390, height: 844 });
      await turkish.page.goto('/risk-flags');
      await turkish.page.screenshot({ path: `${SHOTS}/console-risk-flags-phone-tr.png`, fullPage: true });
    } finally {
      await turkish.context.close();
    }
  });

  it("is not in a reviewer's navigation, and a reviewer is refused the queue, a flag and the report", async () => {
    const { h } = setup;
    const flags = (await h.ops('GET', '/risk-flags?status=CLOSED')).body.data as Flag[];
    const reviewer = await loginInBrowser(h.browser, h.console.url, setup.reviewer, '/review');
    try {
      await expect(reviewer.page.locator('nav a[href="/risk-flags"]').count()).resolves.toBe(0);
      expect((await reviewer.page.request.get('/risk-flags')).status()).toBe(403);
      expect((await reviewer.page.request.get(`/risk-flags/${flags[0]?.id ?? '00000000-0000-4000-8000-000000000000'}`)).status()).toBe(403);
      const today = istanbulDay(new Date());
      expect((await reviewer.page.request.get(`/risk-flags/report?from=${today}&to=${today}`)).status()).toBe(403);
    } finally {
      await reviewer.context.close();
    }
  });
});
