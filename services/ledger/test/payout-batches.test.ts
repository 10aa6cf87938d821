/**
 * Payout batches over the real ops API: approved withdrawals batched into a pain.001.001.03 file (validated against the
 * published XSD) and a CSV; a statement's debit lines marking each batched withdrawal SENT with its webhook, a return
 * credit marking one RETURNED with the bank's reason code and kept out of the unmatched queue; the same statement
 * again changing nothing; and two batch creations at the same moment never sharing a payout.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

/**
 * The published ISO 20022 schema, as Debian ships it (package tryton-modules-account-payment-sepa, which .ci/run
 * installs with libxml2-utils for xmllint).
 */
const PAIN_001_XSD = '/usr/lib/python3/dist-packages/trytond/modules/account_payment_sepa/tests/pain.001.001.03.xsd';

async function newAccount(): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

/** Approved withdrawals of a funded site, each for `amount`. */
async function approvedWithdrawals(count: number, amount = 120000): Promise<string[]> {
  const { h, site } = setup;
  await h.fund(site, amount * count);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { withdrawalId } = await h.createWithdrawal(site, amount);
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {})).status).toBe(200);
    ids.push(withdrawalId);
  }
  return ids;
}

async function download(batchId: string, format?: string) {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/payout-batches/${batchId}/file${format ? `?format=${format}` : ''}`, {
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}` },
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

async function importCsv(accountId: string, body: string) {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

interface Line {
  direction: 'debit' | 'credit';
  amount: bigint;
  bankTxId: string;
  description: string;
  counterpartyIban?: string;
  endToEndId?: string;
  returnReason?: string;
}

/** A statement of the account in the CSV layout (docs/statements.md), its balances adding up. */
function statementCsv(iban: string, id: string, lines: Line[]): string {
  const money = (minor: bigint) =>
    `${minor < 0n ? '-' : ''}${(minor < 0n ? -minor : minor) / 100n}.${String((minor < 0n ? -minor : minor) % 100n).padStart(2, '0')}`;
  const opening = 10_000_000n;
  const closing = lines.reduce((sum, line) => sum + (line.direction === 'credit' ? line.amount : -line.amount), opening);
  const row = (cells: string[]) => cells.map((cell) => (/[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row([iban, id, '2026-11-20', 'opening', money(opening), 'TRY', '', '', '', '', '', '']),
    ...lines.map((line) =>
      row([
        iban,
        id,
        '2026-11-20T10:00:00',
        line.direction,
        money(line.amount),
        'TRY',
        line.bankTxId,
        'AYŞE YILMAZ',
        line.counterpartyIban ?? '',
        line.description,
        line.endToEndId ?? '',
        line.returnReason ?? '',
      ]),
    ),
    row([iban, id, '2026-11-20', 'closing', money(closing), 'TRY', '', '', '', '', '', '']),
    '',
  ].join('\n');
}

describe('payout batches', () => {
  it('batches approved withdrawals into a pain.001 file and a CSV, leaving them APPROVED, audited', async () => {
    const { h } = setup;
    const account = await newAccount();
    const ids = await approvedWithdrawals(2);
    const created = await h.ops('POST', '/payout-batches', { withdrawalIds: ids, accountId: account.id });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ batchId: expect.any(String), count: 2, total: '240000' });
    const batchId = created.body.batchId as string;

    const detail = await h.ops('GET', `/payout-batches/${batchId}`);
    expect(detail.body).toMatchObject({ batchId, receivingAccountId: account.id, count: 2, total: '240000' });
    // The bootstrap token is no operator: no e-mail to show (the console's payouts test covers an operator's).
    expect(detail.body).toMatchObject({ createdBy: 'bootstrap', createdByEmail: null });
    const withdrawals = await Promise.all(ids.map(async (id) => (await h.ops('GET', `/withdrawals/${id}`)).body));
    expect(detail.body.items.map((item: { reference: string }) => item.reference).sort()).toEqual(
      withdrawals.map((w) => w.referenceNo as string).sort(),
    );
    for (const w of withdrawals) expect(w.status).toBe('APPROVED');
    expect((await h.ops('GET', '/payout-batches')).body.data.map((b: { batchId: string }) => b.batchId)).toContain(batchId);
    const audits = await h.ledger.deps.db.auditLog.findMany({ where: { action: 'PAYOUT_BATCH.CREATED', entityId: batchId } });
    expect(audits).toHaveLength(1);

    const xml = await download(batchId);
    expect(xml.status).toBe(200);
    expect(xml.type).toContain('application/xml');
    expect(xml.text).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03');
    expect(xml.text).toContain('<NbOfTxs>2</NbOfTxs>');
    expect(xml.text).toContain('<CtrlSum>2400.00</CtrlSum>');
    expect(xml.text).toContain(`<IBAN>${account.iban}</IBAN>`);
    for (const w of withdrawals) {
      expect(xml.text).toContain(`<EndToEndId>${w.referenceNo}</EndToEndId>`);
      expect(xml.text).toContain(`<IBAN>${w.targetIban}</IBAN>`);
    }
    // The published XSD is the judge: xmllint exits non-zero (and the test fails) on any schema error.
    expect(existsSync(PAIN_001_XSD)).toBe(true);
    const file = join(mkdtempSync(join(tmpdir(), 'pain001-')), 'batch.xml');
    writeFileSync(file, xml.text);
    expect(execFileSync('xmllint', ['--noout', '--schema', PAIN_001_XSD, file], { encoding: 'utf8', stdio: 'pipe' })).toBe('');

    const csv = await download(batchId, 'csv');
    expect(csv.type).toContain('text/csv');
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe('reference,amount,currency,creditor_iban,creditor_name,debtor_iban,kind,item_id');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^KW[A-Z0-9]{8},1200\.00,TRY,TR\d{24},Ayşe Yılmaz,TR\d{24},withdrawal,[0-9a-f-]{36}$/);
    expect((await download(batchId, 'xlsx')).status).toBe(400);
  });

  it('reads a batch naming as many payouts as the schema allows (5,000 ids), not refusing its size', async () => {
    const account = await newAccount();
    const ids = Array.from({ length: 5000 }, () => randomUUID());
    const answer = await setup.h.ops('POST', '/payout-batches', { withdrawalIds: ids, accountId: account.id });
    // Read and judged (none of these ids is an approved withdrawal), where a 64 KiB limit answered 413 before.
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('refuses to reject a withdrawal once its file went to the bank, changing nothing', async () => {
    const { h } = setup;
    const account = await newAccount();
    const [id] = await approvedWithdrawals(1);
    expect((await h.ops('POST', '/payout-batches', { withdrawalIds: [id], accountId: account.id })).status).toBe(201);
    const refused = await h.ops('POST', `/withdrawals/${id}/reject`, { reason: 'Changed our mind' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'conflict', reason: 'invalid_transition' });
    expect(refused.body.detail).toMatch(/payout batch/);
    expect((await h.ops('GET', `/withdrawals/${id}`)).body.status).toBe('APPROVED');
  });

  it('marks each batched withdrawal SENT from the statement, a returned one RETURNED with its code, and a repeat changes nothing', async () => {
    const { h } = setup;
    const account = await newAccount();
    const ids = await approvedWithdrawals(2, 50000);
    const batch = await h.ops('POST', '/payout-batches', { withdrawalIds: ids, accountId: account.id });
    expect(batch.status).toBe(201);
    const [first, second] = await Promise.all(ids.map(async (id) => (await h.ops('GET', `/withdrawals/${id}`)).body));
    const tag = Math.random().toString(36).slice(2, 10).toUpperCase();
    const file = statementCsv(account.iban, `PAY-${tag}`, [
      // One confirmed by its EndToEndId, the other by its beneficiary's IBAN with the reference in the remittance text.
      { direction: 'debit', amount: 50000n, bankTxId: `D1-${tag}`, description: 'EFT KASA', endToEndId: first.referenceNo },
      {
        direction: 'debit',
        amount: 50000n,
        bankTxId: `D2-${tag}`,
        description: `Ödeme ${second.referenceNo}`,
        counterpartyIban: second.targetIban,
      },
      // The second comes back: the account is closed.
      {
        direction: 'credit',
        amount: 50000n,
        bankTxId: `R1-${tag}`,
        description: `İade ${second.referenceNo}`,
        endToEndId: second.referenceNo,
        returnReason: 'AC04',
      },
    ]);

    const imported = await importCsv(account.id, file);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ created: 3, duplicates: 0, unmatched: 0, matched: 0, payoutsSent: 2, payoutsReturned: 1 });

    const after = await Promise.all(ids.map(async (id) => (await h.ops('GET', `/withdrawals/${id}`)).body));
    expect(after[0]).toMatchObject({ status: 'SENT', sentBankTxId: `D1-${tag}` });
    expect(after[1]).toMatchObject({ status: 'RETURNED' });
    const events = async (id: string) =>
      (await h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })).map((e) => ({
        type: e.type,
        data: (e.payload as { data: Record<string, any> }).data,
      }));
    const firstEvents = await events(ids[0] as string);
    expect(firstEvents.map((e) => e.type)).toEqual(['withdrawal.sent']);
    const secondEvents = await events(ids[1] as string);
    expect(secondEvents.map((e) => e.type)).toEqual(['withdrawal.sent', 'withdrawal.returned']);
    expect(secondEvents[1]?.data.returnReason.code).toBe('AC04');

    const audits = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: ids[0] as string, action: 'WITHDRAWAL.SENT' } });
    expect(audits).toMatchObject([{ actorType: 'SYSTEM', actorId: 'payout-statement', metadata: { rule: 'payout_statement' } }]);

    // The money back is the return's, not unknown money for the deposit queue.
    const returned = await h.ledger.deps.db.bankTransfer.findFirstOrThrow({
      where: { receivingAccountId: account.id, bankTxId: `R1-${tag}` },
    });
    expect(returned).toMatchObject({ status: 'PAYOUT_RETURNED', unmatchedReason: 'payout_returned' });

    const again = await importCsv(account.id, file);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, duplicates: 3, payoutsSent: 0, payoutsReturned: 0 });
    expect(await events(ids[1] as string)).toHaveLength(2);

    const check = await h.ops('GET', '/journal/check');
    expect(check.body.problems).toEqual([]);
  });

  it('never batches a withdrawal twice when two batches are created at the same moment', async () => {
    const { h } = setup;
    const account = await newAccount();
    const ids = await approvedWithdrawals(3, 10000);
    const [a, b] = await Promise.all([
      h.ops('POST', '/payout-batches', { withdrawalIds: [ids[0], ids[1]], accountId: account.id }),
      h.ops('POST', '/payout-batches', { withdrawalIds: [ids[1], ids[2]], accountId: account.id }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const items = await h.ledger.deps.db.payoutBatchItem.findMany({ where: { withdrawalId: { in: ids } } });
    expect(items).toHaveLength(2);
    expect(new Set(items.map((item) => item.withdrawalId)).size).toBe(2);

    const again = await h.ops('POST', '/payout-batches', { withdrawalIds: [ids[1]], accountId: account.id });
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('nothing_to_batch');
  });
});
