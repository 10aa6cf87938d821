/**
 * Receiving accounts in the console: an admin adds one with its bank account number and branch code and changes
 * them (audited); a number that is not digits is refused naming the field; a reviewer sees the accounts but no form.
 */
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-receiving-accounts';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

const accountWith = async (iban: string) =>
  ((await setup.h.ops('GET', '/receiving-accounts')).body.data as Array<Record<string, unknown>>).find((a) => a.iban === iban);

describe('receiving accounts', () => {
  it('lets an admin add an account with its number and branch code, then change and remove them', async () => {
    const { page } = setup;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    await page.goto('/receiving-accounts');
    await page.getByLabel('Bank', { exact: true }).fill('Yapı Kredi');
    await page.getByLabel('Account holder', { exact: true }).fill('Kasa Ödeme Hizmetleri A.Ş.');
    await page.getByLabel('IBAN', { exact: true }).fill(iban);
    await page.locator('input[name=accountNumber]').fill('93984487');
    await page.locator('input[name=branchCode]').fill('00763');
    await page.getByRole('button', { name: 'Add receiving account' }).click();
    await page.waitForURL('**/receiving-accounts?notice=receiving-account-created');
    const created = await accountWith(iban);
    expect(created).toMatchObject({ bankName: 'Yapı Kredi', accountNumber: '93984487', branchCode: '00763' });
    await expect(page.locator('tr', { hasText: iban }).innerText()).resolves.toMatch(/93984487\s+00763/);
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/console-receiving-accounts.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/console-receiving-accounts-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.locator('tr', { hasText: iban }).getByRole('link', { name: 'Edit' }).click();
    await page.locator('input[name=accountNumber]').fill('12345678');
    await page.locator('input[name=branchCode]').fill('');
    await page.getByRole('button', { name: 'Save account' }).click();
    await page.waitForURL('**/receiving-accounts?notice=receiving-account-saved');
    expect(await accountWith(iban)).toMatchObject({ accountNumber: '12345678', branchCode: null });

    await page.goto(`/audit?entityType=receiving_account&entityId=${String(created?.id)}`);
    await expect(page.locator('main').innerText()).resolves.toContain('RECEIVING_ACCOUNT.CHANGED');
  });

  it('refuses an account number that is not digits, naming the field, and changes nothing', async () => {
    const { h, page } = setup;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const created = await h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
    await page.goto(`/receiving-accounts/${String(created.body.id)}`);
    // The browser's own pattern check would stop the form; the ledger's is the one that counts.
    await page.locator('input[name=accountNumber]').evaluate((input) => input.removeAttribute('pattern'));
    await page.locator('input[name=accountNumber]').fill('12-34-ab');
    await page.getByRole('button', { name: 'Save account' }).click();
    await expect(page.locator('section.error').textContent()).resolves.toContain('accountNumber');
    expect(await accountWith(iban)).toMatchObject({ accountNumber: null });
  });

  it('shows a reviewer the accounts without a form', async () => {
    const { h, reviewer } = setup;
    const { context, page } = await h.login(reviewer);
    await page.goto('/receiving-accounts');
    await expect(page.locator('main').textContent()).resolves.toContain('Adding or changing receiving accounts needs the admin role.');
    await expect(page.getByRole('button', { name: 'Add receiving account' }).count()).resolves.toBe(0);
    await context.close();
  });
});
