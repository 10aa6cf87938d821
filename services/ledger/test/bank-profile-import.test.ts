/**
 * A statement imported over the real ops API is read with its bank's profile before matching: the sender a Ziraat
 * line writes after `Gönd:` lands on the transfer and weighs in the match, where the same text at a bank with no
 * profile leaves the sender unknown; and a sender's IBAN in the text is never the receiving account's own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const profileSample = (name: string) =>
  readFileSync(new URL(`../../../packages/statements/test/samples/profiles/${name}`, import.meta.url), 'utf8');

/** A valid Turkish IBAN at the bank with this five-digit code, for a fresh random account number. */
function ibanAt(bankCode: string): string {
  const bban = `${bankCode}0${String(Math.floor(Math.random() * 1e15)).padStart(16, '0')}`;
  let remainder = 0;
  for (const digit of `${bban}292700`) remainder = (remainder * 10 + Number(digit)) % 97;
  return `TR${String(98 - remainder).padStart(2, '0')}${bban}`;
}

async function newAccount(bankCode: string): Promise<{ id: string; iban: string }> {
  const iban = ibanAt(bankCode);
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Test Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

/** The sample on `iban`, its deposit references (in file order) replaced by `references`. */
function template(text: string, sampleIban: string, iban: string, references: string[]): string {
  let out = text
    .replaceAll(sampleIban, iban)
    .replaceAll(sampleIban.replace(/(.{4})/g, '$1 ').trim(), iban.replace(/(.{4})/g, '$1 ').trim());
  for (const reference of references) out = out.replace('KD7MX4Q2RH', reference);
  return out;
}

async function importFile(accountId: string, body: string) {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}`, 'content-type': 'text/plain' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const transfersOf = (receivingAccountId: string) =>
  setup.h.ledger.deps.db.bankTransfer.findMany({ where: { receivingAccountId }, orderBy: { bankTxId: 'asc' } });

/** Two deposits for the two named senders of the Ziraat sample, and the file templated onto `account`. */
async function ziraatFile(account: { iban: string }) {
  const { h, site } = setup;
  const ayse = await h.createDeposit(site, 150000, { externalUserLabel: 'Ayşe Yılmaz' });
  const mehmet = await h.createDeposit(site, 75025, { externalUserLabel: 'Mehmet Öztürk' });
  const file = template(profileSample('ziraat.sta'), 'TR620001001234567890123456', account.iban, [ayse.referenceNo, mehmet.referenceNo]);
  return { ayse, mehmet, file };
}

describe('importing with bank profiles', () => {
  it("reads a Ziraat line's sender after Gönd:, so the deposit it pays is matched with the sender agreeing", async () => {
    const account = await newAccount('00010');
    const { ayse, mehmet, file } = await ziraatFile(account);

    const imported = await importFile(account.id, file);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: 'mt940', matched: 2 });

    const [first, second, refund] = await transfersOf(account.id);
    expect(first).toMatchObject({ bankTxId: 'ZRT73000001', senderName: 'AYŞE YILMAZ', status: 'MATCHED', intentId: ayse.intentId });
    expect(first?.matchReasons).toEqual(expect.arrayContaining(['reference_exact', 'amount_exact', 'sender_matches_user']));
    expect(second).toMatchObject({ bankTxId: 'ZRT73000002', senderName: 'MEHMET OZTURK', status: 'MATCHED', intentId: mehmet.intentId });
    expect(second?.matchReasons).toEqual(expect.arrayContaining(['reference_exact', 'amount_exact', 'sender_matches_user']));
    expect(refund).toMatchObject({ bankTxId: 'ZRT73000004', senderName: '', status: 'UNMATCHED' });
  });

  it('leaves the sender unknown for the same text at a bank with no profile, and the match says the sender differs', async () => {
    const account = await newAccount('00062');
    const { ayse, file } = await ziraatFile(account);

    expect((await importFile(account.id, file)).status).toBe(201);
    const [first] = await transfersOf(account.id);
    expect(first).toMatchObject({ bankTxId: 'ZRT73000001', senderName: '', intentId: ayse.intentId });
    expect(first?.matchReasons).toEqual(expect.arrayContaining(['reference_exact', 'sender_differs']));
  });

  it("takes the sender's IBAN from the text, never the receiving account's own written beside it", async () => {
    const account = await newAccount('00062');
    const deposit = await setup.h.createDeposit(setup.site, 150000);
    const file = template(profileSample('tr-generic.sta'), 'TR910006200019000006672315', account.iban, [deposit.referenceNo]);

    expect((await importFile(account.id, file)).status).toBe(201);
    const transfers = await transfersOf(account.id);
    expect(transfers.map((t) => [t.bankTxId, t.senderIban])).toEqual([
      ['GAR0000001', 'TR260001000201234567890123'],
      ['GAR0000002', ''],
    ]);
    expect(transfers[0]).toMatchObject({ status: 'MATCHED', intentId: deposit.intentId });
  });
});
