import { describe, expect, it } from '@jest/globals';
import { loginInBrowser } from './harness.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { expectTurkish } from './i18n-pages.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

/** The scenario's withdrawals pay "Ayşe Yılmaz": a national list naming her holds each of them. */
const LIST_CSV = [
  'id,kind,name,aliases,program,listed_on,birth_date,nationality',
  'TR-TEST-0001,individual,Ayşe Yılmaz,Ayse Yilmaz,6415,2026-01-05,1980,Türkiye',
  'TR-TEST-0002,individual,Kemal Sunalpınar,,7262,2026-01-05,,',
].join('\n');

async function importList(): Promise<void> {
  const { h } = setup;
  const response = await fetch(`${h.ledger.url}/ops/v1/screening/lists?source=csv&list=tr-masak-6415`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
    body: LIST_CSV,
  });
  expect([200, 201]).toContain(response.status);
}

describe('the screening page', () => {
  it('lists a held payout with its matched entry and score; two admins clear it and the payout continues', async () => {
    const { h, site, page } = setup;
    await importList();
    await h.fund(site, 100000);
    const withdrawal = await h.createWithdrawal(site, 25000);

    await page.goto('/screening');
    await expect(page.locator('nav a[href="/screening"]').getAttribute('aria-current')).resolves.toBe('page');
    const hits = (await h.ops('GET', '/screening/hits')).body.data as Array<{ hitId: string; subjectId: string }>;
    const hitId = hits.find((hit) => hit.subjectId === withdrawal.withdrawalId)?.hitId as string;
    const row = page.locator(`tr[data-id="${hitId}"]`);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(withdrawal.referenceNo);
    expect(text).toContain('Ayşe Yılmaz');
    expect(text).toContain('tr-masak-6415');
    expect(text).toContain('TR-TEST-0001');
    expect(text).toContain('1.00');
    await page.screenshot({ path: '/tmp/screening-desktop.png', fullPage: true });

    // The first admin's decision is recorded; the payout stays held.
    await row.locator('input[name="note"]').first().fill('Different birth year on the customer ID');
    await row.getByRole('button', { name: 'Clear (not this person)' }).click();
    await page.waitForURL('**/screening?notice=screening-first-decision');
    await expect(page.locator('.notice').textContent()).resolves.toContain('a second admin agrees');
    await expect(page.locator(`tr[data-id="${hitId}"]`).textContent()).resolves.toContain(`cleared by ${setup.admin.email}`);
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).body.reason).toBe('compliance_hold');

    // A second admin agrees in their own browser: cleared, and the withdrawal approves.
    const second = await h.createOperator('ADMIN');
    const other = await loginInBrowser(h.browser, h.console.url, second, '/screening');
    try {
      const theirRow = other.page.locator(`tr[data-id="${hitId}"]`);
      await theirRow.locator('input[name="note"]').first().fill('Agreed: not the listed person');
      await theirRow.getByRole('button', { name: 'Clear (not this person)' }).click();
      await other.page.waitForURL('**/screening?notice=screening-cleared');
      await expect(other.page.locator(`tr[data-id="${hitId}"]`).count()).resolves.toBe(0);
      await other.page.goto('/screening?status=DECIDED');
      await expect(other.page.locator(`tr[data-id="${hitId}"]`).textContent()).resolves.toContain('Cleared');
    } finally {
      await other.context.close();
    }
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).body.status).toBe('APPROVED');
  });

  it("is not in a reviewer's navigation, and the ledger refuses a reviewer the queue", async () => {
    const { h } = setup;
    const reviewer = await loginInBrowser(h.browser, h.console.url, setup.reviewer, '/review');
    try {
      await expect(reviewer.page.locator('nav a[href="/screening"]').count()).resolves.toBe(0);
      const response = await reviewer.page.request.get('/screening');
      expect(response.status()).toBe(403);
    } finally {
      await reviewer.context.close();
    }
  });

  it('reads in Turkish for a Turkish browser', async () => {
    const { h, site } = setup;
    await importList();
    await h.createWithdrawal(site, 12000);
    const turkish = await loginInBrowser(h.browser, h.console.url, setup.admin, '/screening', 'tr-TR');
    try {
      const answer = await turkish.page.request.get('/screening', { headers: { 'Accept-Language': 'tr-TR,tr;q=0.9' } });
      const text = expectTurkish(await answer.text());
      expect(text).toContain('Karar bekleyenler');
      expect(text).toContain('Eşleşmeyi doğrula');
      await turkish.page.setViewportSize({ width: 390, height: 844 });
      await turkish.page.goto('/screening');
      await turkish.page.screenshot({ path: '/tmp/screening-phone-tr.png', fullPage: true });
    } finally {
      await turkish.context.close();
    }
  });
});
