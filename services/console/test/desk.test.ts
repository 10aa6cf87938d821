/**
 * The operators' desk in the browser: the header's search box, the dashboard, the review queue oldest first
 * with its waiting time, the deposit list's filters, partner health on the Deliveries page, and every page
 * at 768 px without sideways scrolling.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

async function pendingDeposit(amount: number, extra: Record<string, string> = {}) {
  const intent = await setup.h.createDeposit(setup.site, amount, extra);
  expect((await setup.h.transfer(intent.referenceNo, amount)).status).toBe(201);
  return intent;
}

describe('search', () => {
  it('finds a deposit by a reference typed with spaces and lower case, and opens it', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(41500);
    const typed = `${intent.referenceNo.slice(0, 3)} ${intent.referenceNo.slice(3, 7)} ${intent.referenceNo.slice(7)}`.toLowerCase();
    await page.goto('/review');
    await page.getByRole('searchbox', { name: /Search deposits/ }).fill(typed);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=/);
    const deposits = page.locator('section.results', { hasText: 'Deposits' });
    await expect(deposits.locator('tr[data-id]').count()).resolves.toBe(1);
    await expect(page.locator('section.results', { hasText: 'Bank transfers' }).locator('tr[data-id]').count()).resolves.toBe(1);
    // The box keeps what was searched.
    await expect(page.getByRole('searchbox').inputValue()).resolves.toBe(typed);
    await deposits.getByRole('link', { name: intent.referenceNo }).click();
    await page.waitForURL(`**/intents/${intent.intentId}`);
    await page.screenshot({ path: '/tmp/kasa-console-search-opened.png', fullPage: true });
  });

  it('finds a user by the partner id and says so when nothing matches', async () => {
    const { page } = setup;
    const user = `caller-${randomUUID().slice(0, 8)}`;
    await setup.h.createDeposit(setup.site, 12000, { externalUserId: user });
    await page.goto(`/search?q=${user}`);
    await expect(page.locator('section.results', { hasText: 'Deposits' }).locator('tr[data-id]').count()).resolves.toBe(1);
    await page.screenshot({ path: '/tmp/kasa-console-search.png', fullPage: true });
    await page.goto('/search?q=no-such-thing-anywhere');
    await expect(page.locator('main .hint').first().textContent()).resolves.toContain('Nothing matches');
  });
});

describe('queues and dashboard', () => {
  it('lists the review queue oldest first with the waiting time, marked past the limit', async () => {
    const { h, page } = setup;
    const older = await pendingDeposit(20000);
    const newer = await pendingDeposit(30000);
    // The older one's money arrived two hours ago (the limit is REVIEW_WAIT_WARN_MINUTES, 30 by default).
    await h.ledger.deps.db.deposit.update({
      where: { id: older.intentId },
      data: { awaitingReviewSince: new Date(Date.now() - 2 * 3_600_000) },
    });
    await page.goto('/review');
    const ids = await page
      .locator('section', { hasText: 'Deposits awaiting review' })
      .locator('tr[data-id]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
    expect(ids.indexOf(older.intentId)).toBeLessThan(ids.indexOf(newer.intentId));
    const olderWait = page.locator(`tr[data-id="${older.intentId}"] .waiting`);
    await expect(olderWait.textContent()).resolves.toMatch(/^2h \d+m$/);
    await expect(olderWait.getAttribute('class')).resolves.toBe('waiting over');
    await expect(page.locator(`tr[data-id="${newer.intentId}"] .waiting`).getAttribute('class')).resolves.toBe('waiting');
  });

  it('shows on the dashboard the counts the ops API gives, with the oldest item linked', async () => {
    const { h, page } = setup;
    await pendingDeposit(15000);
    await page.goto('/');
    const dashboard = (await h.ops('GET', '/dashboard')).body;
    for (const queue of ['depositsToReview', 'unmatchedTransfers', 'withdrawalsToReview', 'deadEvents']) {
      const card = page.locator(`.queue-card[data-queue="${queue}"]`);
      await expect(card.locator('.count').textContent()).resolves.toBe(String(dashboard[queue].count));
    }
    const deposits = page.locator('.queue-card[data-queue="depositsToReview"]');
    await expect(deposits.getAttribute('class')).resolves.toContain('alert');
    await deposits.getByRole('link', { name: 'Oldest' }).click();
    await page.waitForURL(`**/intents/${dashboard.depositsToReview.oldestId}`);
  });
});

describe('incoming money', () => {
  it('sets a transfer aside, assigns it by reference, and approves a deposit paid by two transfers, flagging a sender', async () => {
    const { h, page } = setup;
    const intent = await h.createDeposit(setup.site, 30000, { externalUserLabel: 'Ayşe Yılmaz' });
    expect((await h.transfer(intent.referenceNo, 18000)).status).toBe(201);
    const loose = await h.ops('POST', '/bank-transfers', {
      bankTxId: `desk-${randomUUID()}`,
      amount: '12000',
      senderName: 'MEHMET DEMIR',
      senderIban: 'TR330006100519786457841326',
      description: 'para yatirma',
      receivedAt: new Date().toISOString(),
    });
    expect(loose.body.status).toBe('UNMATCHED');

    await page.goto('/bank-transfers');
    const row = page.locator(`tr[data-id="${loose.body.bankTransferId}"]`);
    await row.getByLabel('Why it is set aside').fill('Sender asked to hold it');
    await row.getByRole('button', { name: 'Set aside' }).click();
    await page.waitForURL('**/bank-transfers?notice=transfer-set-aside');
    await page.goto('/bank-transfers?status=SET_ASIDE');
    const aside = page.locator(`tr[data-id="${loose.body.bankTransferId}"]`);
    await expect(aside.textContent()).resolves.toContain('Sender asked to hold it');
    await aside.getByLabel('Deposit reference or intent id').fill(intent.referenceNo.toLowerCase());
    await aside.getByRole('button', { name: 'Assign' }).click();
    await page.waitForURL(`**/intents/${intent.intentId}?notice=transfer-assigned`);
    await expect(page.locator('main').textContent()).resolves.toContain('sent by MEHMET DEMIR');
    await page.screenshot({ path: '/tmp/kasa-console-split-funded.png', fullPage: true });

    await page.goto('/review');
    const queued = page.locator(`tr[data-id="${intent.intentId}"]`);
    await expect(queued.locator('.sender-flag').count()).resolves.toBe(1);
    let confirmText = '';
    page.once('dialog', (dialog) => void (confirmText = dialog.message()));
    await queued.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=intent-approved');
    expect(confirmText).toContain('MEHMET DEMIR');
    expect((await h.ops('GET', `/intents/${intent.intentId}`)).body).toMatchObject({ status: 'APPROVED', amount: '30000' });
  });
});

describe('returns to senders', () => {
  it("returns a rejected deposit's money: asked on the deposit, approved and marked sent on Returns, the IBAN in full there", async () => {
    const { h, page } = setup;
    const intent = await h.createDeposit(setup.site, 22000);
    const paid = await h.transfer(intent.referenceNo, 22000);
    await h.ops('POST', `/intents/${intent.intentId}/reject`, { reason: 'Sender is not the user' });
    await page.goto(`/intents/${intent.intentId}`);
    const row = page.locator(`tr[data-id="${paid.body.bankTransferId}"]`);
    await row.getByLabel('Why it goes back').fill('Deposit rejected; the money goes back');
    await row.getByRole('button', { name: 'Return to sender' }).click();
    await page.waitForURL(/\/returns\/[0-9a-f-]+\?notice=return-requested/);
    const returnId = new URL(page.url()).pathname.split('/').pop() as string;
    await expect(page.locator('code.iban').getAttribute('data-copy')).resolves.toBe(paid.body.senderIban);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(`**/returns/${returnId}?notice=return-approved`);
    await page.getByLabel('Bank transaction id').fill('EFT-BACK-1');
    await page.getByRole('button', { name: 'Mark sent' }).click();
    await page.waitForURL(`**/returns/${returnId}?notice=return-sent`);
    await page.screenshot({ path: '/tmp/kasa-console-return.png', fullPage: true });
    expect((await h.ops('GET', `/sender-returns/${returnId}`)).body).toMatchObject({ status: 'SENT', sentBankTxId: 'EFT-BACK-1' });
    expect((await h.ops('GET', `/bank-transfers/${paid.body.bankTransferId}`)).body.status).toBe('RETURNED');
    await page.goto('/returns?status=SENT');
    await expect(page.locator(`tr[data-id="${returnId}"]`).count()).resolves.toBe(1);
  });

  it("marks a sandbox's return and simulated transfer TEST, off the live queue and with no operator step", async () => {
    const { h, page } = setup;
    const issued = await h.ops('POST', `/sites/${setup.site.siteId}/api-keys`, { mode: 'test' });
    const twin = { siteId: issued.body.siteId as string, slug: `${setup.site.slug}.test` };
    const simulate = async (path: string, request: Record<string, unknown> = {}) => {
      const response = await fetch(`${h.ledger.url}/internal/v1/sites/${twin.siteId}/test${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': h.env.config.internalToken },
        body: JSON.stringify({ apiKeyId: issued.body.apiKeyId, request }),
      });
      expect(response.status).toBeLessThan(300);
      return (await response.json()) as Record<string, any>;
    };
    // The test key's deposit approved for less than arrived: the rest goes back to the simulated sender at once.
    const intent = await h.createDeposit(twin, 18000);
    const paid = await simulate(`/deposits/${intent.intentId}/transfers`);
    await simulate(`/deposits/${intent.intentId}/approve`, { amount: '12000' });
    const returnId = (await h.ops('GET', '/sender-returns?mode=test')).body.data.find((r: any) => r.intentId === intent.intentId)
      .returnId as string;

    await page.goto('/returns?status=SENT');
    await expect(page.locator(`tr[data-id="${returnId}"]`).count()).resolves.toBe(0);
    await page.goto('/returns?mode=test&status=SENT');
    await expect(page.locator(`tr[data-id="${returnId}"] .badge`, { hasText: 'TEST' }).count()).resolves.toBe(1);
    await page.goto(`/returns/${returnId}`);
    await expect(page.locator('dl .badge', { hasText: 'TEST' }).count()).resolves.toBe(1);
    await expect(
      page
        .getByRole('button')
        .filter({ hasText: /Approve|Mark sent|Reject/ })
        .count(),
    ).resolves.toBe(0);
    await page.goto(`/bank-transfers/${paid.bankTransferId as string}`);
    // The transfer's own status says TEST (its sandbox site's link carries a TEST badge of its own).
    await expect(
      page
        .locator('xpath=//dt[normalize-space()="Status"]/following-sibling::dd[1]//*[contains(@class, "badge")]', { hasText: 'TEST' })
        .count(),
    ).resolves.toBe(1);
  });
});

describe('lists', () => {
  it('filters deposits by amount typed in lira and by status, and refuses an amount it cannot read', async () => {
    const { page } = setup;
    const user = `list-${randomUUID().slice(0, 8)}`;
    const small = await setup.h.createDeposit(setup.site, 10000, { externalUserId: user });
    await setup.h.createDeposit(setup.site, 90000, { externalUserId: user });
    await page.goto('/deposits');
    await page.getByLabel('User id').fill(user);
    await page.getByLabel('Largest amount in lira (TRY)').fill('100,00');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/max=100%2C00/);
    const ids = await page.locator('tr[data-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
    expect(ids).toEqual([small.intentId]);
    const refused = await page.goto('/deposits?max=1.500');
    expect(refused?.status()).toBe(400);
    await expect(page.locator('section.error').textContent()).resolves.toContain('max');
  });

  it("shows each partner's delivery health and filters events by site", async () => {
    const { page, site } = setup;
    await page.goto(`/deliveries?siteId=${site.siteId}`);
    await expect(page.locator(`section:has(h2:text("Partners")) tr[data-id="${site.siteId}"]`).count()).resolves.toBe(1);
    await expect(page.locator('select[name="siteId"]').inputValue()).resolves.toBe(site.siteId);
  });
});

describe('narrow screens', () => {
  it('keeps every page within 768 px and the dashboard within a 390 px phone', async () => {
    const { page } = setup;
    await pendingDeposit(25000, { externalUserLabel: 'Uzun Bir Kullanıcı Adı Soyadı' });
    const problems: string[] = [];
    for (const [width, paths] of [
      [
        768,
        ['/', '/review', '/deposits', '/withdrawals', '/bank-transfers', '/deliveries', '/sites', '/balances', '/audit', '/search?q=ka'],
      ],
      [390, ['/', '/search?q=ka']],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of paths) {
        await page.goto(path);
        const scrollWidth = await page.evaluate('document.scrollingElement.scrollWidth');
        if ((scrollWidth as number) > width) problems.push(`${path} at ${width}: ${String(scrollWidth)} px wide`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });
});
