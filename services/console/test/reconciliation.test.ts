/**
 * The Reconciliation page in Chromium: every receiving account with its statement and booked balances, a
 * difference marked, the account's page listing the line no statement carries; and the dashboard card that
 * appears only while some account's difference is not zero.
 */
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** A one-day statement in Kasa's CSV layout: 1.000,00 opening, +200,00, closing 1.200,00. */
function statement(iban: string, tag: string): string {
  const row = (at: string, direction: string, amount: string, txId = '') =>
    `${iban},${tag}-S1,${at},${direction},${amount},TRY,${txId},${txId ? 'AYŞE YILMAZ' : ''},,${txId ? 'HAVALE' : ''},,`;
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row('2025-03-14T00:00:00Z', 'opening', '1000.00'),
    row('2025-03-14T09:00:00Z', 'credit', '200.00', `${tag}-L1`),
    row('2025-03-14T23:59:59Z', 'closing', '1200.00'),
  ].join('\n');
}

describe('the Reconciliation page and its dashboard card', () => {
  it('lists each account, marks a difference with the unconfirmed line, and the dashboard links to it', async () => {
    const { h, page } = setup;
    const tag = `R${Math.floor(Math.random() * 1e8)}`;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const account = (await h.ops('POST', '/receiving-accounts', { bankName: 'Garanti BBVA', holderName: 'Kasa A.Ş.', iban })).body
      .id as string;

    // Reconciled: the dashboard shows no card for it (another file's accounts are not in this database).
    const imported = await fetch(`${h.ledger.url}/ops/v1/receiving-accounts/${account}/statements`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
      body: statement(iban, tag),
    });
    expect(imported.status).toBe(201);
    await page.goto('/');
    await expect(page.locator('[data-queue="reconciliationDifferences"]').count()).resolves.toBe(0);

    // A line the statement does not show.
    const posted = await h.ops('POST', `/receiving-accounts/${account}/lines`, {
      lines: [
        {
          bankTxId: `${tag}-EXTRA`,
          direction: 'credit',
          amount: '7500',
          currency: 'TRY',
          receivedAt: '2025-03-14T12:00:00.000Z',
          senderName: 'Ali Kaya',
          senderIban: makeTrIban(3),
          description: 'typed by hand',
        },
      ],
    });
    expect(posted.status).toBe(201);

    await page.goto('/');
    const card = page.locator('[data-queue="reconciliationDifferences"]');
    await expect(card.locator('.count').textContent()).resolves.toBe('1');
    await card.getByRole('link', { name: 'Reconciliation differences' }).click();
    await page.waitForURL('**/reconciliation');

    const row = page.locator(`tr[data-id="${account}"]`);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('1.200,00 ₺');
    expect(text).toContain('1.275,00 ₺');
    await expect(row.locator('.badge.danger').textContent()).resolves.toBe('-75,00 ₺');

    await row.getByRole('link').first().click();
    await page.waitForURL(`**/reconciliation/${account}`);
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain(`${tag}-EXTRA`);
    expect(main).toContain(`${tag}-S1`);
    expect(main).toContain('None: each statement opens where the one before closed.');
  });
});
