/**
 * Readable lists: the user's label and id each have their own column in the deposits and withdrawals lists, and
 * amounts read one way everywhere, inputs included: placeholders and prefilled values are written like the table
 * cells (`1.500,00`), and that form typed back is the same amount.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Scenario } from '@kasa/testkit';
import type { Page } from 'playwright-core';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-deliveries';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

const partner = () =>
  new Scenario({
    ledgerUrl: setup.h.ledger.url,
    opsToken: setup.h.env.config.opsBootstrapToken,
    internalToken: setup.h.env.config.internalToken,
  });

/** The text of each cell of the row, by its column's header. */
async function cellsOf(page: Page, rowId: string): Promise<Record<string, string>> {
  const cells = page.locator(`tr[data-id="${rowId}"] td[data-label]`);
  const labels = await cells.evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label') ?? ''));
  const texts = await cells.allInnerTexts();
  return Object.fromEntries(labels.map((label, i) => [label, (texts[i] ?? '').trim()]));
}

describe('lists', () => {
  it("show the user's label and id in their own columns, for deposits and withdrawals", async () => {
    const { h, page, site } = setup;
    const labelled = await h.createDeposit(site, 30000, { externalUserId: 'player-1001', externalUserLabel: 'Ayşe Yılmaz' });
    const unlabelled = await h.createDeposit(site, 40000, { externalUserId: 'player-1002' });
    await page.goto(`/deposits?siteId=${site.siteId}`);
    expect(await cellsOf(page, labelled.intentId)).toMatchObject({ User: 'Ayşe Yılmaz', 'User id': 'player-1001', Requested: '300,00 ₺' });
    expect(await cellsOf(page, unlabelled.intentId)).toMatchObject({ User: '—', 'User id': 'player-1002' });
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/deposits-list.png`, fullPage: true });

    await h.fund(site, 500000);
    const withdrawal = await partner().createWithdrawal(site.siteId, 120000, {
      externalUserId: 'player-2001',
      externalUserLabel: 'Mehmet Demir',
    });
    await page.goto(`/withdrawals?status=PENDING_REVIEW&siteId=${site.siteId}`);
    expect(await cellsOf(page, withdrawal.withdrawalId)).toMatchObject({
      User: 'Mehmet Demir',
      'User id': 'player-2001',
      Amount: '1.200,00 ₺',
    });
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/withdrawals-list.png`, fullPage: true });
  });

  it('write amounts in inputs as the cells do, and read that form back as the same amount', async () => {
    const { h, page } = setup;
    await page.goto('/deposits');
    await expect(page.getByLabel('Smallest amount in lira (TRY)').getAttribute('placeholder')).resolves.toBe('100,00');
    await expect(page.getByLabel('Largest amount in lira (TRY)').getAttribute('placeholder')).resolves.toBe('5.000,00');

    // The approve field's placeholder is what arrived, as the review queue's cells write it.
    const site = await h.createSite();
    const intent = await h.createDeposit(site, 123456);
    expect((await h.transfer(intent.referenceNo, 123456)).status).toBe(201);
    await page.goto('/review');
    await expect(page.locator(`tr[data-id="${intent.intentId}"] input[name="amount"]`).getAttribute('placeholder')).resolves.toBe(
      '1.234,56',
    );

    // A site's settings show their amounts grouped; saved unchanged, they are read back as the same amounts.
    const limited = await h.createSite({ minAmount: '1000', maxAmount: '100000000' });
    await page.goto(`/sites/${limited.siteId}`);
    await expect(page.getByLabel('Maximum amount in lira (TRY)').inputValue()).resolves.toBe('1.000.000,00');
    await expect(page.getByLabel('Minimum amount in lira (TRY)').inputValue()).resolves.toBe('10,00');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${limited.siteId}?notice=site-unchanged`);
    await page.getByLabel('Maximum amount in lira (TRY)').fill('2.500.000,50');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${limited.siteId}?notice=site-settings-saved`);
    expect((await h.ops('GET', `/sites/${limited.siteId}`)).body).toMatchObject({ minAmount: '1000', maxAmount: '250000050' });
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/site-settings.png`, fullPage: true });
  });
});
