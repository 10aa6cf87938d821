/**
 * The over-credit hole, tried through the console as a careless (or hostile) reviewer would: a deposit that
 * received 2,000.00 TRY approved with a larger amount is refused, the site's balance does not move, and the
 * journal check stays ok.
 */
import { describe, expect, it } from '@jest/globals';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

const balance = async () => (await setup.h.ops('GET', `/sites/${setup.site.siteId}/balance`)).body as { available: string };

describe('approving more than arrived in the console', () => {
  it.each(['2000,01', '9999999999', '99999999999999'])(
    'refuses %s for a deposit that received 2.000,00 TRY and changes nothing',
    async (typed) => {
      const { h, page, site } = setup;
      const intent = await h.createDeposit(site, 200000);
      expect((await h.transfer(intent.referenceNo, 200000)).status).toBe(201);
      const before = await balance();
      await page.goto('/review');
      const row = page.locator(`tr[data-id="${intent.intentId}"]`);
      await row.locator('input[name="amount"]').fill(typed);
      await row.getByRole('button', { name: 'Approve' }).click();
      await page.waitForLoadState('domcontentloaded');
      // Refused either by the console's own input check or by the ledger's: never a success notice.
      await expect(page.locator('.notice').count()).resolves.toBe(0);
      await expect(page.locator('section.error').count()).resolves.toBe(1);
      const depositNow = (await h.ops('GET', `/intents/${intent.intentId}`)).body;
      expect(depositNow).toMatchObject({ status: 'PENDING_REVIEW', amount: '200000' });
      expect(await balance()).toEqual(before);
      expect((await h.ops('GET', '/journal/check')).body).toMatchObject({ ok: true });
    },
  );

  it('tells the reviewer the money received is the limit', async () => {
    const { h, page, site } = setup;
    const intent = await h.createDeposit(site, 200000);
    expect((await h.transfer(intent.referenceNo, 200000)).status).toBe(201);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.locator('input[name="amount"]').fill('2000,01');
    await row.getByRole('button', { name: 'Approve' }).click();
    await expect(page.locator('section.error h2').textContent()).resolves.toBe(
      'The amount is more than the money received for this deposit.',
    );
    await expect(page.locator('section.error').textContent()).resolves.toContain('received');
  });
});
