/**
 * Importing a receiving account's bank statement over the real ops API: every format of the package's samples
 * (templated onto the test's own account and deposits) with every field landing on the transfer; the refusals
 * (another account, another currency, balances that do not add up, a malformed file, a camt.052 report opening after
 * the day's opening) answering 4xx with nothing created; and the same file twice, in turn and at the same moment,
 * creating one set of transfers and events.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { parseStatements } from '@kasa/statements';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const SAMPLE_IBAN = 'TR180006200119000006672315';
const sample = (name: string) => readFileSync(new URL(`../../../packages/statements/test/samples/${name}`, import.meta.url), 'utf8');

/** The CSV sample's first statement only (its second is of another account). */
const csvSample = () =>
  sample('statement.csv')
    .split('\n')
    .filter((row) => !row.includes('ZRT-20250314-B'))
    .join('\n');

/** A fresh receiving account for the test, so bank references and statement ids are its own. */
async function newAccount(): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

/** The sample's account IBAN (compact or grouped by four) replaced by `iban`, and each `[from, to]` replaced. */
function template(text: string, iban: string, replacements: Array<[string, string]> = []): string {
  let out = text.replaceAll(SAMPLE_IBAN, iban).replaceAll(SAMPLE_IBAN.replace(/(.{4})/g, '$1 ').trim(), iban);
  for (const [from, to] of replacements) out = out.replaceAll(from, to);
  return out;
}

async function importFile(accountId: string, body: string | Buffer, contentType: string, token?: string) {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token ?? setup.h.env.config.opsBootstrapToken}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A camt.052 sample (hbci4java's, origin in its comment) moved onto `iban` and into lira. */
const camt052InLira = (name: string, iban: string) =>
  sample(name)
    .replaceAll('DE12345678901234567890', iban)
    .replaceAll('Ccy="EUR"', 'Ccy="TRY"')
    .replaceAll('<Ccy>EUR</Ccy>', '<Ccy>TRY</Ccy>');

const transfersOf = (receivingAccountId: string) =>
  setup.h.ledger.deps.db.bankTransfer.findMany({ where: { receivingAccountId }, orderBy: { bankTxId: 'asc' } });
const importAudits = (receivingAccountId: string) =>
  setup.h.ledger.deps.db.auditLog.findMany({
    where: { action: 'BANK_STATEMENT.IMPORTED', metadata: { path: ['receivingAccountId'], equals: receivingAccountId } },
  });

describe('importing a statement', () => {
  it('records each CSV credit line as a transfer, matched by reference, with every field, and keeps the debits', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000, { externalUserLabel: 'Ayşe Yılmaz' });
    const file = template(csvSample(), account.iban, [['KD7MX4Q2RH', deposit.referenceNo]]);

    const imported = await importFile(account.id, file, 'text/csv');
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      format: 'csv',
      statements: [{ statementId: imported.body.statementId, reference: 'ZRT-20250314' }],
      lines: 3,
      created: 3,
      duplicates: 0,
      matched: 1,
      unmatched: 1,
    });

    const transfers = await transfersOf(account.id);
    expect(transfers).toHaveLength(2);
    expect(transfers[0]).toMatchObject({
      bankTxId: 'ZRT73000001',
      amount: 150000n,
      currency: 'TRY',
      senderName: 'AYŞE YILMAZ',
      senderIban: 'TR260001000201234567890123',
      description: `HAVALE ${deposit.referenceNo}, teşekkürler`,
      receivedAt: new Date('2025-03-14T06:12:00.000Z'),
      status: 'MATCHED',
      intentId: deposit.intentId,
      statementId: imported.body.statementId,
    });
    expect(transfers[1]).toMatchObject({ bankTxId: 'ZRT73000003', amount: 75000n, senderName: 'ALİ KAYA', senderIban: '' });
    expect(transfers[1]).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'no_reference', description: 'İade: hesap kapalı' });

    const intent = await h.ops('GET', `/intents/${deposit.intentId}`);
    expect(intent.body).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '150000' });
    const debits = await h.ledger.deps.statements.debitsOf(imported.body.statementId as string);
    expect(debits).toMatchObject([
      {
        bankTxId: 'ZRT73000002',
        amount: 500000n,
        counterpartyName: 'ÖZTÜRK TEKSTİL A.Ş.',
        counterpartyIban: 'TR800004600123888000098765',
        description: 'Ödeme "WD-8F3K2M"\nŞubat faturası',
        endToEndId: 'KASA-WD-8F3K2M',
      },
    ]);
    const audits = await importAudits(account.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorType: 'OPERATOR',
      entityType: 'bank_statement',
      entityId: imported.body.statementId,
      metadata: { format: 'csv', created: 3, matched: 1, unmatched: 1, duplicates: 0 },
    });
  });

  it('imports an MT940 file of two statements', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const first = await h.createDeposit(site, 150000);
    const second = await h.createDeposit(site, 275025);
    const file = template(sample('mt940-two-statements.sta'), account.iban, [
      ['KD7MX4Q2RH', first.referenceNo],
      ['KD9PQ3ZT7W', second.referenceNo],
    ]);
    const lines = parseStatements(file, 'text/plain').statements.flatMap((s) => s.lines);

    const imported = await importFile(account.id, file, 'text/plain');
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: 'mt940', lines: lines.length, created: lines.length, matched: 2, duplicates: 0 });
    expect(imported.body.statements.map((s: { reference: string }) => s.reference)).toEqual([
      'GAR2503140001/00073/001',
      'GAR2503150001/00074/001',
    ]);
    const transfers = await transfersOf(account.id);
    expect(transfers).toHaveLength(lines.filter((line) => line.direction === 'credit').length);
    const paid = transfers.find((t) => t.intentId === second.intentId);
    expect(paid).toMatchObject({
      bankTxId: 'B25074HAV00001',
      amount: 275025n,
      senderName: 'MEHMET DEMİR',
      senderIban: 'TR290006400000112345678901',
      status: 'MATCHED',
    });
    expect((await h.ops('GET', `/intents/${first.intentId}`)).body).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '150000' });
  });

  it('imports a camt.053 file', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 255000);
    const file = template(sample('camt053-v08.xml'), account.iban, [['KDW8N5R2XP', deposit.referenceNo]]);
    const lines = parseStatements(file, 'application/xml').statements.flatMap((s) => s.lines);

    const imported = await importFile(account.id, file, 'application/xml');
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ format: 'camt.053', lines: lines.length, created: lines.length, matched: 1 });
    const transfer = (await transfersOf(account.id)).find((t) => t.intentId === deposit.intentId);
    expect(transfer).toMatchObject({
      bankTxId: 'ISB25074FAST0184',
      amount: 255000n,
      senderName: 'ÇAĞLA GÜNEŞ',
      senderIban: 'TR290006400000112345678901',
      description: `${deposit.referenceNo} yatırım`,
      receivedAt: new Date('2025-03-15T07:15:00.000Z'),
      status: 'MATCHED',
    });
  });

  it('imports a camt.052 report, a real one moved onto the account and into lira, keeping its balances', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 1000);
    // hbci4java's report: its placeholder IBAN, EUR and the first line's remittance text replaced by the test's
    // account, lira and deposit.
    const file = camt052InLira('camt052-v02-hbci4java.xml', account.iban).replace('Verwendungszweck 1', deposit.referenceNo);

    const imported = await importFile(account.id, file, 'application/xml');
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      format: 'camt.052',
      statements: [{ reference: 'camt052_ONLINEBA/2018-07-23T12:43:32+01:00' }],
      lines: 2,
      created: 2,
      matched: 1,
    });
    const transfer = (await transfersOf(account.id)).find((t) => t.intentId === deposit.intentId);
    expect(transfer).toMatchObject({ amount: 1000n, senderName: 'Max Mustermann', description: deposit.referenceNo, status: 'MATCHED' });
    const statements = await h.ledger.deps.db.bankStatement.findMany({ where: { receivingAccountId: account.id } });
    expect(statements).toEqual([expect.objectContaining({ format: 'camt.052', openingBalance: 10_000n, closingBalance: 11_050n })]);
  });

  it('keeps the transfer purpose the file declares, and the desk lists by it', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 255000);
    const file = template(sample('camt053-v08.xml'), account.iban, [
      ['KDW8N5R2XP', deposit.referenceNo],
      ['<ns2:RmtInf><ns2:Ustrd>', '<ns2:Purp><ns2:Cd>SALA</ns2:Cd></ns2:Purp><ns2:RmtInf><ns2:Ustrd>'],
    ]);
    expect((await importFile(account.id, file, 'application/xml')).status).toBe(201);
    const transfers = await transfersOf(account.id);
    const declared = transfers.find((t) => t.intentId === deposit.intentId);
    expect(declared?.purpose).toBe('SALA');
    expect(transfers.filter((t) => t.id !== declared?.id).every((t) => t.purpose === null)).toBe(true);

    const listed = await h.ops('GET', '/bank-transfers?purpose=SALA&limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { bankTransferId: string }) => t.bankTransferId)).toContain(declared?.id);
    expect(listed.body.data.every((t: { purpose: string }) => t.purpose === 'SALA')).toBe(true);
    expect((await h.ops('GET', `/bank-transfers/${declared?.id}`)).body).toMatchObject({ purpose: 'SALA' });
    expect((await h.ops('GET', '/bank-transfers?purpose=SUPP&limit=100')).body.data).toEqual([]);
    // A filter that is no purpose code is refused, naming it.
    const refused = await h.ops('GET', `/bank-transfers?purpose=${encodeURIComponent("SALA' OR 1=1")}`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('purpose');
  });
});

describe('matching an imported line', () => {
  /** `reference` with its sixth character changed to another of the alphabet: one character off. */
  const typo = (reference: string) => reference.slice(0, 5) + (reference[5] === '7' ? '8' : '7') + reference.slice(6);

  it('shows why a line matched, and suggests the deposit a near reference names without moving it', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const exact = await h.createDeposit(site, 150000, { externalUserLabel: 'Ayşe Yılmaz' });
    const near = await h.createDeposit(site, 75000, { externalUserLabel: 'Ali Kaya' });
    const other = await h.createDeposit(site, 75000);
    const file = template(csvSample(), account.iban, [
      ['KD7MX4Q2RH', exact.referenceNo],
      ['İade: hesap kapalı', `Yatırım ${typo(near.referenceNo).toLowerCase()}`],
    ]);
    const imported = await importFile(account.id, file, 'text/csv');
    expect(imported.body).toMatchObject({ created: 3, matched: 1, suggested: 1, unmatched: 0 });

    const [matched, suggested] = await transfersOf(account.id);
    const matchedView = await h.ops('GET', `/bank-transfers/${matched!.id}`);
    expect(matchedView.body).toMatchObject({
      status: 'MATCHED',
      matchReasons: ['reference_exact', 'amount_exact', 'sender_matches_user'],
      suggestions: [],
    });
    const suggestedView = await h.ops('GET', `/bank-transfers/${suggested!.id}`);
    expect(suggestedView.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'no_reference', matchReasons: [] });
    expect(suggestedView.body.suggestions).toEqual([
      {
        intentId: near.intentId,
        referenceNo: near.referenceNo,
        confidence: 75,
        reasons: ['reference_near', 'amount_exact', 'sender_matches_user'],
      },
    ]);
    expect(suggestedView.body.suggestions).not.toContainEqual(expect.objectContaining({ intentId: other.intentId }));
    expect((await h.ops('GET', `/intents/${near.intentId}`)).body).toMatchObject({ status: 'RESERVED' });

    // Confirming the suggestion is the assign action.
    const assigned = await h.ops('POST', `/bank-transfers/${suggested!.id}/assign`, { intentId: near.intentId });
    expect(assigned.body).toMatchObject({
      status: 'ASSIGNED',
      matchReasons: ['reference_near', 'amount_exact', 'sender_matches_user'],
      intent: { status: 'PENDING_REVIEW' },
    });
  });
});

describe('refusing a statement', () => {
  const refusals: Array<[string, (file: string) => string, number, RegExp]> = [
    // The file keeps the sample's own account.
    ['of another account', (file) => file, 422, /is of account TR\*\*…\d{4}, not of this receiving account \(TR\*\*…\d{4}\)/],
    ['in another currency', (file) => file.replaceAll(',TRY,', ',EUR,'), 422, /Statement ZRT-20250314 is in EUR; only TRY/],
    ['whose balances do not add up', (file) => file.replace('122250.00', '122251.00'), 422, /Statement ZRT-20250314/],
    ['that cannot be read', (file) => file.replace('1500.00', '1.500,00'), 400, /^The statement file cannot be read: line \d+/],
  ];

  it.each(refusals)('refuses a statement %s with nothing created', async (name, change, status, detail) => {
    const account = await newAccount();
    const base = name === 'of another account' ? csvSample() : template(csvSample(), account.iban);
    const imported = await importFile(account.id, change(base), 'text/csv');
    expect(imported.status).toBe(status);
    expect(imported.body.detail).toMatch(detail);
    expect(await transfersOf(account.id)).toEqual([]);
    expect(await setup.h.ledger.deps.db.bankStatement.count({ where: { receivingAccountId: account.id } })).toBe(0);
    expect(await importAudits(account.id)).toEqual([]);
  });

  it("refuses a camt.052 report that opens after the day's opening, which could hide a line behind an earlier one's key", async () => {
    const { h } = setup;
    const account = await newAccount();
    // The day's first report: PRCD 100.00 of the day before, two credits of 10.00 and 0.50 without a bank reference.
    const first = camt052InLira('camt052-v02-hbci4java.xml', account.iban);
    expect((await importFile(account.id, first, 'application/xml')).status).toBe(201);
    // A later report carrying only the lines since: opening at the first one's close (PRCD 110.50 of the same day) with
    // another payer's 10.00 without a reference, which adds up and would take the key NONREF|C|1000|2018-07-20|1 of the
    // first report's 10.00, to be counted as already imported.
    const delta = first
      .replaceAll('2018-07-23T12:43:32+01:00', '2018-07-23T15:00:00+01:00')
      .replace('<Amt Ccy="TRY">110.50</Amt>', '<Amt Ccy="TRY">120.50</Amt>')
      .replace('<Amt Ccy="TRY">100.00</Amt>', '<Amt Ccy="TRY">110.50</Amt>')
      .replace('<Dt>2018-07-19</Dt>', '<Dt>2018-07-20</Dt>')
      .replace(/<Ntry>\s*<Amt Ccy="TRY">0\.50<\/Amt>[\s\S]*?<\/Ntry>/, '')
      .replace('Max Mustermann', 'Erika Zahler');
    const before = { transfers: (await transfersOf(account.id)).length, audits: (await importAudits(account.id)).length };

    const imported = await importFile(account.id, delta, 'application/xml');
    expect(imported.status).toBe(400);
    expect(imported.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'Rpt[1]/Bal[1]' }] });
    expect(imported.body.detail).toMatch(/opens at PRCD 2018-07-20, not at the opening of 2018-07-20.*the day's camt\.053$/);
    expect(before).toEqual({ transfers: 2, audits: 1 });
    expect({ transfers: (await transfersOf(account.id)).length, audits: (await importAudits(account.id)).length }).toEqual(before);
    expect(await h.ledger.deps.db.bankStatement.count({ where: { receivingAccountId: account.id } })).toBe(1);
  });

  it('names the place of a malformed file in the field errors', async () => {
    const account = await newAccount();
    const imported = await importFile(
      account.id,
      template(sample('camt053-v08.xml'), account.iban).replace('</ns2:Stmt>', ''),
      'application/xml',
    );
    expect(imported.status).toBe(400);
    expect(imported.body.errors[0].field).toMatch(/^line \d+$/);
  });

  it('refuses a JSON body with 415, a file over 16 MiB with 413, an unknown account with 404', async () => {
    const account = await newAccount();
    expect((await importFile(account.id, '{}', 'application/json')).status).toBe(415);
    const huge = await importFile(account.id, Buffer.alloc(16 * 1024 * 1024 + 1, 'a'), 'text/csv');
    expect(huge).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
    expect((await importFile('7d1f3c1e-52a8-4d3e-9a56-3b0f3f8b0c11', csvSample(), 'text/csv')).status).toBe(404);
  });

  it('lets a reviewer import', async () => {
    const account = await newAccount();
    const reviewer = await setup.h.createOperator('REVIEWER');
    expect((await importFile(account.id, template(csvSample(), account.iban), 'text/csv', reviewer.token)).status).toBe(201);
  });
});

describe('importing again', () => {
  it('creates nothing new when the same file is imported twice', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000);
    const file = template(csvSample(), account.iban, [['KD7MX4Q2RH', deposit.referenceNo]]);
    const first = await importFile(account.id, file, 'text/csv');
    const again = await importFile(account.id, file, 'text/csv');
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 200, body: { statementId: first.body.statementId, created: 0, duplicates: 3, matched: 0 } });
    expect(await transfersOf(account.id)).toHaveLength(2);
    expect(await importAudits(account.id)).toHaveLength(1);

    // An overlapping statement (another id, the same lines) adds nothing either.
    const overlapping = await importFile(account.id, file.replaceAll('ZRT-20250314', 'ZRT-20250314-2'), 'text/csv');
    expect(overlapping).toMatchObject({ status: 200, body: { created: 0, duplicates: 3 } });
    expect(await transfersOf(account.id)).toHaveLength(2);
  });

  it('creates one set of transfers and deposit changes when the same file is imported twice at once', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000);
    const file = template(csvSample(), account.iban, [['KD7MX4Q2RH', deposit.referenceNo]]);
    const answers = await Promise.all([importFile(account.id, file, 'text/csv'), importFile(account.id, file, 'text/csv')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers.map((a) => a.body.created).sort()).toEqual([0, 3]);
    expect(await transfersOf(account.id)).toHaveLength(2);
    expect(await importAudits(account.id)).toHaveLength(1);
    const depositAudit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: deposit.intentId } });
    expect(depositAudit.map((entry) => entry.action)).toEqual(['INTENT.PENDING_REVIEW']);
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { entityId: deposit.intentId } })).toBe(0);
    expect((await h.ops('GET', `/intents/${deposit.intentId}`)).body).toMatchObject({ receivedAmount: '150000' });
  });
});
