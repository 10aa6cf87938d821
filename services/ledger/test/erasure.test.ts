/**
 * Retention and KVKK erasure (docs/compliance.md, Retention and erasure), through the ops API on a real ledger and
 * PostgreSQL: what no hold covers is anonymised at once, the rest when time (a test clock) passes or a legal hold is
 * released; the books, the reconciliation and the hash chains are the same before and after; another site's user with the
 * same id is untouched; racing passes log each record once; and the journal check names personal data left behind.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runDestruction } from '../src/erasure/destruction.use-case.js';
import { answerErasureRequest } from '../src/erasure/erasure-requests.use-case.js';
import { verifyHistory } from '../src/history/verify-history.use-case.js';
import { eventually, startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const USER = 'kvkk-user-1';
const LABEL = 'Ayşe Yılmaz';
const SENDER = 'AYSE YILMAZ';

let h: LedgerHarness;
const clock = new TestClock();
let site: TestSite;
let other: TestSite;
const ids = { deposit: '', rejectedDeposit: '', transfer: '', returnedTransfer: '', senderReturn: '', withdrawal: '', otherDeposit: '' };

const sql = <T = Record<string, unknown>>(text: string, ...values: unknown[]) => h.ledger.deps.db.$queryRawUnsafe<T[]>(text, ...values);

/** Every audit and journal entry linked into its chain, so a check compares settled chains. */
async function chainsCaughtUp() {
  await eventually(
    async () => {
      const [row] = await sql<{ behind: boolean }>(
        `SELECT (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM journal_entries) <> (SELECT count(*) FROM history_links) AS behind`,
      );
      return row?.behind === false;
    },
    20_000,
    'every audit and journal entry linked',
  );
}

/** The journal check and the reconciliation of every account, as the ops API answers them, without their clocks. */
async function books() {
  await chainsCaughtUp();
  const check = await h.ops('GET', '/journal/check');
  const reconciliation = await h.ops('GET', '/reconciliation');
  expect(check.status).toBe(200);
  expect(reconciliation.status).toBe(200);
  const { checkedAt: _checkedAt, ...journal } = check.body as Record<string, unknown>;
  return JSON.stringify({ journal, reconciliation: reconciliation.body }, (key, value) =>
    ['checkedAt', 'asOf', 'generatedAt'].includes(key) ? undefined : value,
  );
}

beforeAll(async () => {
  h = await startLedgerHarness(
    {
      HISTORY_CHAIN_INTERVAL_MS: '200',
      RETENTION_BANK_TRANSFERS_YEARS: '1',
      RETENTION_RETURNS_YEARS: '1',
      DESTRUCTION_INTERVAL_MS: '604800000',
    },
    { clock },
  );
  site = await h.createSite();
  other = await h.createSite();
  await h.fund(site, 500000);
  const user = { externalUserId: USER, externalUserLabel: LABEL };

  const deposit = await h.createDeposit(site, 40000, user);
  ids.deposit = deposit.intentId;
  const paid = await h.transfer(deposit.referenceNo, 40000, { senderName: SENDER });
  ids.transfer = paid.body.bankTransferId as string;
  expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {})).status).toBe(200);

  // A deposit rejected after its money came: the money goes back to its sender (a return).
  const rejected = await h.createDeposit(site, 15000, user);
  ids.rejectedDeposit = rejected.intentId;
  const returned = await h.transfer(rejected.referenceNo, 15000, { senderName: SENDER });
  ids.returnedTransfer = returned.body.bankTransferId as string;
  expect((await h.ops('POST', `/intents/${rejected.intentId}/reject`, { reason: `Sender ${SENDER} is not the user` })).status).toBe(200);
  const asked = await h.ops('POST', `/bank-transfers/${ids.returnedTransfer}/return`, { reason: `Back to ${SENDER}` });
  expect(asked.status).toBe(201);
  ids.senderReturn = asked.body.returnId as string;

  const withdrawal = await h.createWithdrawal(site, 20000, { ...user, targetHolderName: LABEL });
  ids.withdrawal = withdrawal.withdrawalId;
  expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);

  // Another partner's user who happens to have the same id.
  ids.otherDeposit = (await h.createDeposit(other, 30000, user)).intentId;
});
afterAll(async () => {
  await h?.stop();
});

async function personal() {
  const [deposit] = await sql<{ label: string | null }>(
    `SELECT external_user_label AS label FROM deposit_intents WHERE id = $1::uuid`,
    ids.deposit,
  );
  const [otherDeposit] = await sql<{ label: string | null }>(
    `SELECT external_user_label AS label FROM deposit_intents WHERE id = $1::uuid`,
    ids.otherDeposit,
  );
  const [withdrawal] = await sql<{ iban: string; holder: string; label: string | null }>(
    `SELECT target_iban AS iban, target_holder_name AS holder, external_user_label AS label FROM withdrawals WHERE id = $1::uuid`,
    ids.withdrawal,
  );
  const transfers = await sql<{ id: string; senderName: string; senderIban: string; description: string }>(
    `SELECT id::text AS id, sender_name AS "senderName", sender_iban AS "senderIban", description FROM bank_transfers WHERE id = ANY($1::uuid[])`,
    [ids.transfer, ids.returnedTransfer],
  );
  const [senderReturn] = await sql<{ senderName: string; reason: string }>(
    `SELECT sender_name AS "senderName", reason FROM sender_returns WHERE id = $1::uuid`,
    ids.senderReturn,
  );
  // The withdrawal's sanctions screening keeps the name it screened: the user's, erased with the withdrawal.
  const screenedNames = (
    await sql<{ name: string }>(`SELECT screened_name AS name FROM screenings WHERE subject_id = $1::uuid`, ids.withdrawal)
  ).map((row) => row.name);
  return { deposit, otherDeposit, withdrawal, transfers, senderReturn, screenedNames };
}

async function logRows(recordId: string) {
  return sql<{ recordType: string; cause: string; erasureRequestId: string | null }>(
    `SELECT record_type AS "recordType", cause, erasure_request_id::text AS "erasureRequestId" FROM destruction_log WHERE record_id = $1::uuid`,
    recordId,
  );
}

describe('KVKK erasure requests', () => {
  let requestId = '';

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const before = await sql<{ n: string }>(`SELECT (SELECT count(*) FROM erasure_requests) + (SELECT count(*) FROM destruction_log) AS n`);
    const unknown = await h.ops('POST', '/erasure-requests', {
      siteId: '00000000-0000-4000-8000-000000000000',
      externalUserId: USER,
      reason: 'Ticket 1',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'siteId' })]);
    const empty = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: '', reason: 'Ticket 1' });
    expect(empty.status).toBe(400);
    const blank = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: '   ', reason: 'Ticket 1' });
    expect(blank.status).toBe(400);
    const reviewer = await h.createOperator('REVIEWER');
    const refused = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: USER, reason: 'x' }, reviewer.token);
    expect(refused.status).toBe(403);
    const after = await sql<{ n: string }>(`SELECT (SELECT count(*) FROM erasure_requests) + (SELECT count(*) FROM destruction_log) AS n`);
    expect(after).toEqual(before);
    expect((await personal()).deposit?.label).toBe(LABEL);
  });

  it('anonymises at once what no hold covers, lists the rest with its hold, and leaves the books and the chains as they were', async () => {
    const booksBefore = await books();
    expect(JSON.parse(booksBefore).journal).toMatchObject({ ok: true, problems: [] });
    // Two years on: the bank lines and the return (1-year classes) are free; deposits, withdrawals, audit (8 years) are not.
    clock.advance(2 * YEAR_MS);
    const filed = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: USER, reason: 'Ticket KVKK-42' });
    expect(filed.status).toBe(201);
    requestId = filed.body.erasureRequestId as string;
    expect(filed.body).toMatchObject({ status: 'ANSWERED', overdue: false, siteId: site.siteId, externalUserId: USER });
    expect(new Date(filed.body.dueAt).getTime() - new Date(filed.body.receivedAt).getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    const anonymised = Object.fromEntries(
      (filed.body.anonymised as Array<{ recordType: string; count: number }>).map((a) => [a.recordType, a.count]),
    );
    expect(anonymised).toMatchObject({ bank_transfer: 2, sender_return: 1 });
    const waiting = filed.body.waiting.records as Array<{ recordType: string; recordId: string; hold: string; holdEndsAt: string }>;
    const depositWait = waiting.find((w) => w.recordId === ids.deposit);
    expect(depositWait).toMatchObject({ recordType: 'deposit', hold: 'retention' });
    expect(new Date(depositWait?.holdEndsAt ?? 0).getTime()).toBeGreaterThan(clock.now().getTime() + 5 * YEAR_MS);
    expect(waiting.find((w) => w.recordId === ids.withdrawal)).toMatchObject({ hold: 'retention' });
    expect(waiting.some((w) => w.recordId === ids.transfer)).toBe(false);

    const now = await personal();
    expect(now.transfers).toHaveLength(2);
    for (const transfer of now.transfers)
      expect(transfer).toMatchObject({ senderName: '[erased]', senderIban: '[erased]', description: '[erased]' });
    expect(now.senderReturn).toEqual({ senderName: '[erased]', reason: '[erased]' });
    expect(now.deposit?.label).toBe(LABEL);
    expect(now.withdrawal).toMatchObject({ holder: LABEL, label: LABEL });
    expect(now.screenedNames).toEqual([LABEL]);
    // The other partner's user with the same id is not theirs to erase.
    expect(now.otherDeposit?.label).toBe(LABEL);
    expect(await logRows(ids.transfer)).toEqual([{ recordType: 'bank_transfer', cause: 'erasure_request', erasureRequestId: requestId }]);

    // Money, references and the journal untouched: the check and the reconciliation answer exactly as before.
    expect(await books()).toBe(booksBefore);
    expect((await verifyHistory(h.ledger.deps)).ok).toBe(true);

    // The audit entry of the request names the request, never the user or the ticket.
    const [entry] = await sql<{ metadata: unknown }>(
      `SELECT metadata FROM audit_log WHERE action = 'ERASURE.REQUESTED' AND entity_id = $1`,
      requestId,
    );
    expect(JSON.stringify(entry?.metadata)).not.toContain(USER);
    expect(JSON.stringify(entry?.metadata)).not.toContain('KVKK-42');

    const listed = await h.ops('GET', `/erasure-requests?siteId=${site.siteId}`);
    expect(listed.body.data.map((r: { erasureRequestId: string }) => r.erasureRequestId)).toEqual([requestId]);
    expect((await h.ops('GET', `/erasure-requests/${requestId}`)).body).toMatchObject({ erasureRequestId: requestId, status: 'ANSWERED' });
    expect((await h.ops('GET', '/erasure-requests/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('keeps what a legal hold names past its retention until an admin releases it', async () => {
    const reviewer = await h.createOperator('REVIEWER');
    const body = { recordType: 'withdrawal', recordId: ids.withdrawal, reason: 'Court order 2026/118' };
    expect((await h.ops('POST', '/legal-holds', body, reviewer.token)).status).toBe(403);
    expect((await h.ops('POST', '/legal-holds', { ...body, siteId: site.siteId })).status).toBe(400);
    const placed = await h.ops('POST', '/legal-holds', body);
    expect(placed.status).toBe(201);
    const holdId = placed.body.legalHoldId as string;

    // Nine years on: every retention has ended; the destruction job anonymises all but the held withdrawal.
    clock.advance(9 * YEAR_MS);
    await runDestruction(h.ledger.deps);
    let now = await personal();
    expect(now.deposit?.label).toBeNull();
    expect(now.withdrawal).toMatchObject({ holder: LABEL, iban: expect.not.stringContaining('erased') });
    const answered = await h.ops('GET', `/erasure-requests/${requestId}`);
    expect(answered.body.status).toBe('ANSWERED');
    expect(answered.body.waiting.records).toEqual(
      expect.arrayContaining([
        { recordType: 'withdrawal', recordId: ids.withdrawal, hold: 'legal_hold', holdEndsAt: null, legalHoldId: holdId },
      ]),
    );

    // (Nine years on, the reviewer above has long been logged out: a fresh one.)
    const laterReviewer = await h.createOperator('REVIEWER');
    expect((await h.ops('POST', `/legal-holds/${holdId}/release`, {}, laterReviewer.token)).status).toBe(403);
    expect((await h.ops('POST', `/legal-holds/${holdId}/release`, {})).status).toBe(200);
    expect((await h.ops('POST', `/legal-holds/${holdId}/release`, {})).status).toBe(409);

    // Passes racing each other (two jobs and the request's own) anonymise and log each record once.
    const counts = await Promise.all([
      runDestruction(h.ledger.deps),
      runDestruction(h.ledger.deps),
      answerErasureRequest(h.ledger.deps, requestId),
    ]);
    expect(counts[2]?.status).toBe('COMPLETED');
    now = await personal();
    expect(now.withdrawal).toEqual({ holder: '[erased]', iban: '[erased]', label: null });
    expect(now.screenedNames).toEqual(['[erased]']);
    expect(await logRows(ids.withdrawal)).toHaveLength(1);
    const [twice] = await sql<{ n: string }>(
      `SELECT count(*)::text AS n FROM (SELECT 1 FROM destruction_log GROUP BY record_type, record_id HAVING count(*) > 1) d`,
    );
    expect(twice?.n).toBe('0');
    const done = await h.ops('GET', `/erasure-requests/${requestId}`);
    expect(done.body).toMatchObject({ status: 'COMPLETED', waiting: { count: 0, records: [] } });

    const log = await h.ops('GET', `/destruction-log?erasureRequestId=${requestId}&limit=100`);
    expect(log.status).toBe(200);
    expect(log.body.data.every((row: { cause: string }) => row.cause === 'erasure_request')).toBe(true);
    expect((await h.ops('GET', '/destruction-log?recordType=withdrawal')).body.data.length).toBeGreaterThan(0);
  });

  it('leaves the journal check clean and the hash chains whole after erasure, and still catches an erased entry edited', async () => {
    await chainsCaughtUp();
    const check = await h.ops('GET', '/journal/check');
    expect(check.body).toMatchObject({ ok: true, problems: [] });
    const [erased] = await sql<{ id: string; metadata: string }>(
      `SELECT id::text AS id, metadata::text AS metadata FROM audit_log WHERE metadata_sha256 IS NOT NULL AND metadata::text LIKE '%[erased]%' LIMIT 1`,
    );
    expect(erased).toBeDefined();
    expect(erased?.metadata).not.toContain(LABEL);
    await sql(`UPDATE audit_log SET actor_id = 'someone-else' WHERE id = $1::uuid`, erased?.id);
    const report = await verifyHistory(h.ledger.deps);
    expect(report.problems).toEqual([expect.objectContaining({ problem: 'row_changed', rowId: erased?.id })]);
  });

  it('names personal data kept after destruction and an anonymisation nobody logged', async () => {
    await sql(`UPDATE withdrawals SET target_holder_name = $2 WHERE id = $1::uuid`, ids.withdrawal, LABEL);
    const loose = await h.transfer('', 1234, { senderName: 'MEHMET KAYA' });
    const looseId = loose.body.bankTransferId as string;
    await sql(`UPDATE bank_transfers SET sender_name = '[erased]' WHERE id = $1::uuid`, looseId);
    // The destruction log refuses to be rewritten, even by whoever can write to the database.
    await expect(sql(`DELETE FROM destruction_log WHERE record_id = $1::uuid`, ids.withdrawal)).rejects.toThrow(/append-only/);
    await expect(sql(`UPDATE destruction_log SET cause = 'x' WHERE record_id = $1::uuid`, ids.withdrawal)).rejects.toThrow(/append-only/);

    const check = await h.ops('GET', '/journal/check');
    const kept = (check.body.problems as Array<{ kind: string; detail: Record<string, string> }>).filter(
      (p) => p.kind === 'personal_data_kept',
    );
    expect(kept).toEqual(
      expect.arrayContaining([
        { kind: 'personal_data_kept', detail: { case: 'kept_after_destruction', recordType: 'withdrawal', recordId: ids.withdrawal } },
        { kind: 'personal_data_kept', detail: { case: 'destroyed_unlogged', recordType: 'bank_transfer', recordId: looseId } },
      ]),
    );
  });
});
