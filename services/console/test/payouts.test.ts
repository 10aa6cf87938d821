import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useConsoleBrowser } from './browser-fixture.js';
import { expectTurkish } from './i18n-pages.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** Approved withdrawals of the funded site, each for `amount`: what a batch gathers. */
async function approvedWithdrawals(count: number, amount: number): Promise<Array<{ withdrawalId: string; referenceNo: string }>> {
  const { h, site } = setup;
  await h.fund(site, amount * count);
  const out = [];
  for (let i = 0; i < count; i += 1) {
    const withdrawal = await h.createWithdrawal(site, amount);
    expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
    out.push(withdrawal);
  }
  return out;
}

describe('payouts', () => {
  it('batches the approved payouts, lists the batch, shows its items and downloads its files', async () => {
    const { h } = setup;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    expect((await h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban })).status).toBe(201);
    const p = setup.page;

    // Nothing approved yet: a friendly notice, not an error page.
    await p.goto('/payouts');
    await p.getByRole('button', { name: 'Create a batch of every approved payout' }).click();
    await p.waitForURL('**/payouts?notice=nothing-to-batch');
    await expect(p.locator('.notice').textContent()).resolves.toContain('No approved payout is left to batch');

    const withdrawals = await approvedWithdrawals(2, 125000);
    await p.getByRole('button', { name: 'Create a batch of every approved payout' }).click();
    await p.waitForURL('**/payouts/*?notice=payout-batch-created');
    const batchId = new URL(p.url()).pathname.split('/')[2]!;
    const detail = (await p.locator('main').textContent()) ?? '';
    for (const w of withdrawals) expect(detail).toContain(w.referenceNo);
    expect(detail).toContain('2.500,00');

    // Who created the batch reads as the operator's e-mail, on the batch and in the list, never as a bare id.
    const reviewer = (await h.ops('GET', `/payout-batches/${batchId}`)).body;
    expect(reviewer.createdByEmail).toBe(setup.reviewer.email);
    await expect(p.locator('main dl').textContent()).resolves.toContain(setup.reviewer.email);
    await expect(p.locator('main dl').textContent()).resolves.not.toContain(reviewer.createdBy);

    await p.goto('/payouts');
    const row = p.locator(`tr[data-id="${batchId}"]`);
    await expect(row.textContent()).resolves.toContain('2.500,00');
    await expect(row.textContent()).resolves.toContain(setup.reviewer.email);
    await expect(row.textContent()).resolves.not.toContain(reviewer.createdBy);
    await row.getByRole('link').first().click();
    await p.waitForURL(`**/payouts/${batchId}`);

    const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('link', { name: 'Download pain.001 XML' }).click()]);
    expect(download.suggestedFilename()).toBe(`payouts-${batchId}.xml`);
    const xml = readFileSync(await download.path(), 'utf8');
    expect(xml).toContain('pain.001.001.03');
    for (const w of withdrawals) expect(xml).toContain(`<EndToEndId>${w.referenceNo}</EndToEndId>`);

    const csv = await p.request.get(`/payouts/${batchId}/file.csv`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers()['content-disposition']).toBe(`attachment; filename="payouts-${batchId}.csv"`);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toMatch(/^reference,amount,currency,creditor_iban/);
    for (const w of withdrawals) expect(text).toContain(w.referenceNo);

    const missing = await p.request.get('/payouts/00000000-0000-4000-8000-000000000000/file.xml');
    expect(missing.status()).toBe(404);
  });

  it('reads in Turkish for a Turkish browser: the batch list and a batch with its items', async () => {
    const { h, page } = setup;
    await approvedWithdrawals(1, 40000);
    const batch = await h.ops('POST', '/payout-batches', {});
    expect(batch.status).toBe(201);
    const turkish = { headers: { 'Accept-Language': 'tr-TR,tr;q=0.9' } };
    const list = expectTurkish(await (await page.request.get('/payouts', turkish)).text());
    for (const words of ['Ödeme döngüsü', 'Onaylı tüm ödemelerden paket oluştur', 'Oluşturan', 'Ödeyen hesap'])
      expect(list).toContain(words);
    const detail = expectTurkish(await (await page.request.get(`/payouts/${batch.body.batchId}`, turkish)).text());
    for (const words of ['tarihli ödeme paketi', 'pain.001 XML indir', 'Alıcı', 'çekim']) expect(detail).toContain(words);
  });
});
