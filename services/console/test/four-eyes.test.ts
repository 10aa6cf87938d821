/**
 * Four-eyes in the console (docs/operations.md, Four-eyes): above the site's threshold a withdrawal shows "1 of 2"
 * after its first approval, the operator who gave it cannot give the second, and a different operator's approval
 * moves it, with both names on the record.
 */
import { describe, expect, it } from '@jest/globals';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser();

describe('four-eyes approval in the console', () => {
  it('first approval shows 1 of 2, the same operator gets no second button, another operator approves', async () => {
    const { h, site, admin } = setup;
    // An admin sets the site's threshold in its settings: above 1.000,00 TL, two operators.
    const settings = await h.login(admin);
    try {
      await settings.page.goto(`/sites/${site.siteId}`);
      await settings.page.getByLabel('Four-eyes above, in lira (TRY)').fill('1.000,00');
      await settings.page.getByRole('button', { name: 'Save settings' }).click();
      await settings.page.waitForURL(`**/sites/${site.siteId}**`);
      await expect(settings.page.locator('dd', { hasText: '1.000,00 ₺' }).count()).resolves.toBeGreaterThan(0);
    } finally {
      await settings.context.close();
    }
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.dualApprovalAbove).toBe('100000');
    await h.fund(site, 600000);
    const { withdrawalId, referenceNo } = await h.createWithdrawal(site, 250000);
    const first = await h.createOperator('REVIEWER');
    const second = await h.createOperator('REVIEWER');

    const a = await h.login(first);
    try {
      await a.page.goto(`/withdrawals/${withdrawalId}`);
      await expect(a.page.locator('dd', { hasText: 'Needs two different operators' }).count()).resolves.toBe(1);
      await a.page.getByRole('button', { name: 'Give the first approval' }).click();
      await a.page.waitForURL(`**/withdrawals/${withdrawalId}**`);
      await expect(a.page.getByText('First approval recorded (1 of 2)').count()).resolves.toBe(1);
      const fact = a.page.locator('dd', { hasText: '1 of 2' });
      await expect(fact.innerText()).resolves.toContain(first.email);
      await expect(a.page.getByRole('button', { name: /approv/i }).count()).resolves.toBe(0);
      await expect(a.page.getByText('You gave the first approval; a different operator must give the second.').count()).resolves.toBe(1);
      expect(await axeFindings(a.page)).toEqual([]);
      if (process.env.SHOTS) await a.page.screenshot({ path: '/tmp/shots-me/fe1.png', fullPage: true });
      expect((await h.ops('GET', `/withdrawals/${withdrawalId}`)).body.status).toBe('PENDING_REVIEW');

      // The queue marks it as waiting for its second approval.
      await a.page.goto('/withdrawals?status=PENDING_REVIEW');
      const row = a.page.locator('tr', { hasText: referenceNo });
      await expect(row.innerText()).resolves.toContain('1 of 2');
    } finally {
      await a.context.close();
    }

    const b = await h.login(second);
    try {
      await b.page.goto(`/withdrawals/${withdrawalId}`);
      await b.page.getByRole('button', { name: 'Give the second approval' }).click();
      await b.page.waitForURL(`**/withdrawals/${withdrawalId}**`);
      await expect(b.page.getByText('Withdrawal approved;').count()).resolves.toBe(1);
      const approvedBy = await b.page.locator('dt', { hasText: 'Approvals' }).locator('xpath=following-sibling::dd[1]').innerText();
      expect(approvedBy).toBe(`${first.email}, ${second.email}`);
    } finally {
      await b.context.close();
    }
    const after = await h.ops('GET', `/withdrawals/${withdrawalId}`);
    expect(after.body).toMatchObject({ status: 'APPROVED', siteBalance: { reserved: '250000' } });
  });
});
