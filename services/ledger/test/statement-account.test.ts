/**
 * Whose statement a file is, over the real ops API: a receiving account may carry its bank account number and branch
 * code (create and PATCH, validated, audited masked), and a statement naming the account by them, or by the number
 * its IBAN ends with, is imported into it; any other account's file, a stranger's number that is part of ours
 * included, is refused with nothing imported and no full number in the answer.
 */
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';
import { importStatementFile } from './statement-files.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

/** A 9-digit number no other test uses; makeTrIban(seed) is Ziraat's (00061) IBAN ending with it. */
const freshSeed = () => 100_000_000 + Math.floor(Math.random() * 899_999_999);

async function newAccount(fields: { iban?: string; accountNumber?: string; branchCode?: string } = {}) {
  const iban = fields.iban ?? makeTrIban(freshSeed());
  const created = await setup.h.ops('POST', '/receiving-accounts', {
    bankName: 'Ziraat Bankası',
    holderName: 'Kasa A.Ş.',
    ...fields,
    iban,
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; iban: string; accountNumber: string | null; branchCode: string | null };
}

/** One MT940 statement of the account written `account` in `:25:`, with one credit line. */
function mt940(account: string, reference = 'ACC-1'): string {
  return [
    `:20:${reference}`,
    `:25:${account}`,
    ':28C:1/1',
    ':60F:C261120TRY1000,00',
    ':61:2611201120C250,00NTRFNONREF//B26324HAV00001',
    ':86:HAVALE AYSE YILMAZ',
    ':62F:C261120TRY1250,00',
    '',
  ].join('\n');
}

/** One camt.053.001.02 statement whose account is `Acct/Id/Othr/Id`, with one credit entry. */
function camtOther(number: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
  <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-20T18:00:00+03:00</CreDtTm></GrpHdr>
  <Stmt><Id>OTHR-${number}</Id>
    <Acct><Id><Othr><Id>${number}</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr></Id><Ccy>TRY</Ccy></Acct>
    <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
    <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">175.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-20</Dt></Dt></Bal>
    <Ntry><Amt Ccy="TRY">75.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-20</Dt></BookgDt>
      <AcctSvcrRef>OTHR-LINE-1</AcctSvcrRef></Ntry>
  </Stmt>
</BkToCstmrStmt></Document>`;
}

const importFile = (accountId: string, body: string, contentType = 'text/plain') =>
  importStatementFile(setup.h, accountId, body, contentType);

const transfersOf = (receivingAccountId: string) => setup.h.ledger.deps.db.bankTransfer.count({ where: { receivingAccountId } });
const statementsOf = (receivingAccountId: string) => setup.h.ledger.deps.db.bankStatement.count({ where: { receivingAccountId } });

describe("a receiving account's number and branch code", () => {
  it('are taken on create and changed by PATCH, audited with the number masked', async () => {
    const { h } = setup;
    const account = await newAccount({ accountNumber: '0012345678', branchCode: '00763' });
    expect(account).toMatchObject({ accountNumber: '0012345678', branchCode: '00763' });

    const changed = await h.ops('PATCH', `/receiving-accounts/${account.id}`, { accountNumber: '87654321', branchCode: null });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: account.id, iban: account.iban, accountNumber: '87654321', branchCode: null });
    const listed = await h.ops('GET', '/receiving-accounts');
    expect((listed.body.data as Array<Record<string, unknown>>).find((a) => a.id === account.id)).toMatchObject({
      accountNumber: '87654321',
    });

    const audits = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: account.id }, orderBy: { createdAt: 'asc' } });
    expect(audits.map((a) => a.action)).toEqual(['RECEIVING_ACCOUNT.CREATED', 'RECEIVING_ACCOUNT.CHANGED']);
    expect(audits[1]?.metadata).toMatchObject({
      before: { accountNumber: '****5678', branchCode: '00763' },
      after: { accountNumber: '****4321', branchCode: null },
    });
    expect(JSON.stringify(audits.map((a) => a.metadata))).not.toMatch(/12345678|87654321|TR\d{24}/);
  });

  it('refuses a number or branch code that is not digits of a sensible length, an IBAN change and an unknown account', async () => {
    const { h } = setup;
    const account = await newAccount();
    for (const [body, field] of [
      [{ accountNumber: '12AB5678' }, 'accountNumber'],
      [{ accountNumber: '1234' }, 'accountNumber'],
      [{ accountNumber: '1'.repeat(21) }, 'accountNumber'],
      [{ branchCode: '123456' }, 'branchCode'],
      [{ branchCode: '' }, 'branchCode'],
      [{ iban: makeTrIban(freshSeed()) }, 'iban'],
    ] as const) {
      const refused = await h.ops('PATCH', `/receiving-accounts/${account.id}`, body);
      expect([field, refused.status]).toEqual([field, 400]);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    expect((await h.ops('PATCH', `/receiving-accounts/${account.id}`, {})).status).toBe(400);
    const created = await h.ops('POST', '/receiving-accounts', {
      bankName: 'Ziraat Bankası',
      holderName: 'Kasa A.Ş.',
      iban: makeTrIban(freshSeed()),
      accountNumber: '12-345678',
    });
    expect(created.status).toBe(400);
    expect((await h.ops('PATCH', '/receiving-accounts/6f1c1d52-8a61-4a53-9a0f-1d2b3c4d5e6f', { branchCode: '1' })).status).toBe(404);
    expect((await h.ops('GET', '/receiving-accounts')).body.data).toContainEqual(
      expect.objectContaining({ id: account.id, accountNumber: null }),
    );
  });
});

describe('importing a statement that names the account by its number', () => {
  it('imports an MT940 whose :25: is the account number into the account carrying it, and refuses it for another', async () => {
    const number = String(freshSeed());
    const ours = await newAccount({ iban: makeTrIban(freshSeed()), accountNumber: number });
    const other = await newAccount();

    const refused = await importFile(other.id, mt940(`TGBATRIS/${number}`));
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('statement_rejected');
    expect(refused.body.detail).toContain(`number ****${number.slice(-4)}`);
    expect(JSON.stringify(refused.body)).not.toContain(number);
    expect(JSON.stringify(refused.body)).not.toContain(other.iban);
    expect([await transfersOf(other.id), await statementsOf(other.id)]).toEqual([0, 0]);

    const imported = await importFile(ours.id, mt940(`TGBATRIS/${number}`));
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: 'mt940', lines: 1, created: 1 });
    expect(await transfersOf(ours.id)).toBe(1);
  });

  it('imports a Turkish bank, branch and legacy number into the account whose IBAN ends with it, the branch agreeing', async () => {
    const seed = freshSeed();
    const ours = await newAccount({ iban: makeTrIban(seed), branchCode: '763' });
    expect((await importFile(ours.id, mt940(`0061-00764/${seed}`, 'TR-1'))).status).toBe(422);
    expect((await importFile(ours.id, mt940(`0062-00763/${seed}`, 'TR-1'))).status).toBe(422);
    expect(await transfersOf(ours.id)).toBe(0);

    const imported = await importFile(ours.id, mt940(`0061-00763/${seed}`, 'TR-1'));
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ created: 1 });
  });

  it('imports a camt.053 whose account is Acct/Id/Othr/Id', async () => {
    const number = String(freshSeed());
    const ours = await newAccount({ accountNumber: `00${number}` });
    const imported = await importFile(ours.id, camtOther(number), 'application/xml');
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: 'camt.053', created: 1 });
  });

  it("refuses a stranger's file whose number is a suffix or a prefix of ours, importing nothing", async () => {
    const seed = freshSeed();
    const number = String(seed);
    const ours = await newAccount({ iban: makeTrIban(seed), accountNumber: number, branchCode: '763' });
    for (const stranger of [
      number.slice(1),
      number.slice(3),
      number.slice(0, -1),
      `${number}0`,
      `1${number}`,
      `0061-00763/${number.slice(2)}`,
    ]) {
      const refused = await importFile(ours.id, mt940(stranger, `STRANGER-${stranger.slice(-4)}`));
      expect([stranger, refused.status, refused.body.error]).toEqual([stranger, 422, 'statement_rejected']);
    }
    expect([await transfersOf(ours.id), await statementsOf(ours.id)]).toEqual([0, 0]);
  });
});

describe('a file with one statement that cannot be read', () => {
  /** Three days of one account; the second day's statement ends without its closing balance unless `mended`. */
  const threeDays = (iban: string, mended: boolean) =>
    [
      [
        ':20:PART-1',
        `:25:${iban}`,
        ':28C:00324/001',
        ':60F:C261124TRY1000,00',
        ':61:2611241124C500,00NTRFNONREF//PART-L1',
        ':62F:C261124TRY1500,00',
      ],
      [
        ':20:PART-2',
        `:25:${iban}`,
        ':28C:00325/001',
        ':60F:C261124TRY1500,00',
        ':61:2611251125C250,00NTRFNONREF//PART-L2',
        ...(mended ? [':62F:C261125TRY1750,00'] : []),
      ],
      [
        ':20:PART-3',
        `:25:${iban}`,
        ':28C:00326/001',
        ':60F:C261125TRY1750,00',
        ':61:2611261126C40,00NTRFNONREF//PART-L3',
        ':62F:C261126TRY1790,00',
      ],
    ]
      .map((statement) => [...statement, '-'].join('\n'))
      .join('\n');

  it('imports the others, names the one set aside, and takes just its lines when the mended file comes', async () => {
    const ours = await newAccount();
    const part = await importFile(ours.id, threeDays(ours.iban, false));
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({
      lines: 2,
      created: 2,
      statements: [{ reference: 'PART-1/00324/001' }, { reference: 'PART-3/00326/001' }],
    });
    expect(part.body.refusedStatements).toEqual([
      { statementId: 'PART-2/00325/001', location: expect.stringMatching(/^line \d+$/), reason: expect.stringContaining(':62F:') },
    ]);
    expect([await transfersOf(ours.id), await statementsOf(ours.id)]).toEqual([2, 2]);

    const mended = await importFile(ours.id, threeDays(ours.iban, true));
    expect(mended.status).toBe(201);
    expect(mended.body).toMatchObject({ lines: 3, created: 1, duplicates: 2, refusedStatements: [] });
    expect([await transfersOf(ours.id), await statementsOf(ours.id)]).toEqual([3, 3]);
  });
});
