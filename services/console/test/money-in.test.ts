import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });
const SHOTS = '/tmp/shots-statement-import';
const SAMPLE = readFileSync(new URL('../../../packages/statements/test/samples/camt053-v02.xml', import.meta.url), 'utf8');

/** The sample's first statement only, onto `iban`, with its bank references made unique. */
function camt(iban: string, reference: string): string {
  const [head] = SAMPLE.split('    <Stmt>\n      <Id>GAR-20250314-0555666');
  const unique = `G${Math.floor(Math.random() * 1e6)}`;
  return `${head}  </BkToCstmrStmt>\n</Document>\n`
    .replaceAll('TR18 0006 2001 1900 0006 6723 15', iban)
    .replaceAll('GB25073', unique)
    .replaceAll('KD7MX4Q2RH', reference);
}

describe('money in by hand and by statement', () => {
  it('records a transfer through the form and shows it matched', async () => {
    const { h, site } = setup;
    const deposit = await h.createDeposit(site, 150000);
    const p = setup.page;
    await p.goto('/bank-transfers/record');
    await p.getByLabel('Bank tx id').fill(`MAN-${Date.now()}`);
    await p.getByLabel('Amount in lira (TRY)').fill('1.500,00');
    await p.getByLabel('Sender name').fill('Ayşe Yılmaz');
    await p.getByLabel('Sender IBAN').fill(makeTrIban(7));
    await p.getByLabel('Description').fill(deposit.referenceNo);
    await p.getByLabel('Received at (Türkiye time)').fill('2026-01-31T15:00:00');
    await p.getByRole('button', { name: 'Record transfer' }).click();
    await p.waitForURL('**notice=transfer-recorded');
    const main = (await p.locator('main').textContent()) ?? '';
    expect(main).toContain('matched');
    // The deposit by its reference, linked by its id.
    expect(main).toMatch(new RegExp(`Deposit\\s*${deposit.referenceNo}`));
    await expect(p.locator(`main dd a[href="/intents/${deposit.intentId}"]`).count()).resolves.toBe(1);
  });

  it('shows each bad field next to it', async () => {
    const p = setup.page;
    await p.goto('/bank-transfers/record');
    await p.getByLabel('Bank tx id').fill('X-1');
    await p.getByLabel('Amount in lira (TRY)').fill('abc');
    await p.getByLabel('Sender name').fill('A');
    await p.getByLabel('Sender IBAN').fill('TR00');
    await p.getByRole('button', { name: 'Record transfer' }).click();
    await expect(p.locator('#amount-error').count()).resolves.toBe(1);
  });

  it('imports a camt.053 statement and shows the counts and lines; a malformed one its location; axe-clean', async () => {
    const { h, site } = setup;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const account = await h.ops('POST', '/receiving-accounts', { bankName: 'Garanti BBVA', holderName: 'Kasa A.Ş.', iban });
    expect(account.status).toBe(201);
    const deposit = await h.createDeposit(site, 150000);
    const p = setup.page;
    await p.goto('/statements');
    expect(await axeFindings(p)).toEqual([]);
    await p.getByLabel('Receiving account').selectOption(account.body.id as string);
    await p
      .getByLabel('Statement file')
      .setInputFiles({ name: 'day.xml', mimeType: 'application/xml', buffer: Buffer.from(camt(iban, deposit.referenceNo)) });
    await p.getByRole('button', { name: 'Import statement' }).click();
    await p.locator('.import-result').waitFor();
    const result = (await p.locator('.import-result').textContent()) ?? '';
    expect(result).toContain('camt.053');
    expect(result).toMatch(/Matched\s*1/);
    expect(await p.locator('.import-result tbody tr').count()).toBeGreaterThan(1);
    // Each line with its outcome and reasons in words; the deposit by its reference; dates the bank gave alone as dates.
    const paid = p.locator('.import-result tbody tr', { hasText: deposit.referenceNo });
    await expect(paid.textContent()).resolves.toMatch(/matched.*waits for an operator: straight-through is off for this site/s);
    await expect(paid.locator(`a[href="/intents/${deposit.intentId}"]`).count()).resolves.toBe(1);
    expect(result).toContain('the description carries no deposit reference');
    expect(result).toContain('14.03.2025');
    expect(result).not.toContain('03:00:00');
    expect(await axeFindings(p)).toEqual([]);
    await p.screenshot({ path: `${SHOTS}/console-statement-import.png`, fullPage: true });
    await p.setViewportSize({ width: 390, height: 844 });
    await p.screenshot({ path: `${SHOTS}/console-statement-import-phone.png`, fullPage: true });
    await p.setViewportSize({ width: 1280, height: 800 });

    await p.getByLabel('Receiving account').selectOption(account.body.id as string);
    await p
      .getByLabel('Statement file')
      .setInputFiles({ name: 'bad.xml', mimeType: 'application/xml', buffer: Buffer.from(camt(iban, 'X').replace('</Stmt>', '')) });
    await p.getByRole('button', { name: 'Import statement' }).click();
    await expect(p.locator('section.error h2').textContent()).resolves.toMatch(/cannot be read at/);
  });
  it('shows the transfer purpose a statement declares on the line, and the Unmatched list filters by it; axe-clean', async () => {
    const { h } = setup;
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const account = await h.ops('POST', '/receiving-accounts', { bankName: 'Garanti BBVA', holderName: 'Kasa A.Ş.', iban });
    expect(account.status).toBe(201);
    const declared = camt(iban, 'NO-SUCH-REF').replace(
      '<RmtInf><Ustrd>KD9PQ3ZT7W</Ustrd></RmtInf>',
      '<Purp><Cd>SALA</Cd></Purp><RmtInf><Ustrd>KD9PQ3ZT7W</Ustrd></RmtInf>',
    );
    const p = setup.page;
    await p.goto('/statements');
    await p.getByLabel('Receiving account').selectOption(account.body.id as string);
    await p.getByLabel('Statement file').setInputFiles({ name: 'day.xml', mimeType: 'application/xml', buffer: Buffer.from(declared) });
    await p.getByRole('button', { name: 'Import statement' }).click();
    await p.locator('.import-result').waitFor();

    await p.goto('/bank-transfers?status=UNMATCHED');
    const unfiltered = await p.locator('table tbody tr').count();
    await p.getByLabel('Declared purpose').fill('SALA');
    await p.getByRole('button', { name: 'Filter' }).click();
    await p.waitForURL(/purpose=SALA/);
    const rows = p.locator('table tbody tr');
    expect(await rows.count()).toBe(1);
    expect(unfiltered).toBeGreaterThan(1);
    await expect(rows.first().textContent()).resolves.toContain('KD9PQ3ZT7W');
    expect(await axeFindings(p)).toEqual([]);

    const listed = await h.ops('GET', '/bank-transfers?purpose=SALA&limit=100');
    const transferId = listed.body.data[0].bankTransferId as string;
    await p.goto(`/bank-transfers/${transferId}`);
    const facts = (await p.locator('main').textContent()) ?? '';
    expect(facts).toMatch(/Declared purpose\s*SALA/);
  });
});
