/**
 * An operator limited to some sites (docs/operations.md, Operator scopes) in the console: the house-wide sections are
 * not offered, the header says so, and another site's deposit is "not found" as for a missing one.
 */
import { describe, expect, it } from '@jest/globals';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser();

describe('a scoped operator in the console', () => {
  it('sees no Payouts or Reconciliation, a "some sites" badge, and only its sites\' records', async () => {
    const { h, site } = setup;
    const other = await h.createSite();
    const mine = await h.createDeposit(site, 150000);
    const theirs = await h.createDeposit(other, 160000);
    const operator = await h.createOperator('REVIEWER');
    expect((await h.ops('PATCH', `/operators/${operator.operatorId}`, { siteIds: [site.siteId] })).status).toBe(200);

    const { context, page } = await h.login(operator);
    try {
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await expect(nav.getByRole('link', { name: 'Deposits' }).count()).resolves.toBe(1);
      await expect(nav.getByRole('link', { name: 'Payouts' }).count()).resolves.toBe(0);
      await expect(nav.getByRole('link', { name: 'Reconciliation' }).count()).resolves.toBe(0);
      await expect(page.getByText('some sites', { exact: true }).count()).resolves.toBe(1);
      expect(await axeFindings(page)).toEqual([]);

      await page.goto(`/deposits?siteId=${site.siteId}`);
      await expect(page.getByText(mine.referenceNo).count()).resolves.toBe(1);
      const refused = await page.goto(`/intents/${theirs.intentId}`);
      expect(refused?.status()).toBe(404);
    } finally {
      await context.close();
    }

    // An operator with every site is offered every section.
    const everyone = await h.createOperator('REVIEWER');
    const all = await h.login(everyone);
    try {
      const nav = all.page.getByRole('navigation', { name: 'Sections' });
      await expect(nav.getByRole('link', { name: 'Payouts' }).count()).resolves.toBe(1);
      await expect(all.page.getByText('some sites', { exact: true }).count()).resolves.toBe(0);
    } finally {
      await all.context.close();
    }
  });
});
