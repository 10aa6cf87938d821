/**
 * What must hold after every run, read from the ledger's database (a pg client of its own) and its journal check,
 * limited to the run's records (its sites, its bank references, its simulated transfers), so a run that fails leaves
 * nothing that fails the next one and fast-check's shrinking stays meaningful. Each function returns the violations
 * it found, as sentences.
 */
import type { BankLine } from './bank.js';
import type { Run, World } from './perform.js';

/** Statuses of a transfer that holds money (a fix may add a status for a line that only confirms another). */
const HOLDING = ['MATCHED', 'UNMATCHED', 'ASSIGNED', 'SET_ASIDE', 'RETURNING', 'RETURNED', 'PAYOUT_RETURNED'];

interface TransferRow {
  id: string;
  bank_tx_id: string;
  amount: string;
  status: string;
  account: string | null;
  intent_id: string | null;
}

async function runTransfers(run: Run): Promise<TransferRow[]> {
  const { rows } = await run.world.db.query<TransferRow>(
    `SELECT id::text, bank_tx_id, amount::text, status::text, receiving_account_id::text AS account, intent_id::text
     FROM bank_transfers WHERE bank_tx_id LIKE $1 ORDER BY created_at, id`,
    [`${run.bank.prefix}-%`],
  );
  return rows;
}

/** The model's line a row is (its reference's start, which a fix may suffix, and its amount), if any. */
function lineOf(run: Run, direction: BankLine['direction'], bankTxId: string, amount: string): BankLine | undefined {
  const reference = bankTxId.slice(0, run.bank.idLength);
  return run.bank.lines.find((line) => line.direction === direction && line.bankTxId === reference && line.amount === BigInt(amount));
}

const lira = (minor: bigint) => `${minor / 100n},${String((minor < 0n ? -minor : minor) % 100n).padStart(2, '0')} TL`;

/** No request of the run was answered 500 or more. */
export function noServerErrors(run: Run): string[] {
  return run.serverErrors.map((error) => `answered 5xx: ${error}`);
}

/**
 * Every line the bank really had that reached the ledger (by any channel, any number of times) is there exactly once,
 * on its own account; none is lost (a line dropped from a file) and none is there twice (a hand entry and the
 * statement's line both kept); nothing is there that the bank never had.
 */
export async function eachBankLineRecordedOnce(run: Run): Promise<string[]> {
  const problems: string[] = [];
  const { accounts } = run.world;
  const counts = new Map<BankLine, number>();
  for (const row of await runTransfers(run)) {
    if (!HOLDING.includes(row.status)) continue;
    const line = lineOf(run, 'credit', row.bank_tx_id, row.amount);
    if (!line) {
      problems.push(`transfer ${row.id} (${row.bank_tx_id}, ${row.amount}) is no credit the bank had`);
      continue;
    }
    if (row.account !== null && row.account !== accounts[line.account]!.id) {
      problems.push(`credit ${line.bankTxId} of account ${line.account} was recorded on another account`);
    }
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  const debits = await run.world.db.query<{ bank_tx_id: string; amount: string; account: string }>(
    `SELECT bank_tx_id, amount::text, receiving_account_id::text AS account FROM bank_statement_debits WHERE bank_tx_id LIKE $1`,
    [`${run.bank.prefix}-%`],
  );
  for (const row of debits.rows) {
    const line = lineOf(run, 'debit', row.bank_tx_id, row.amount);
    if (!line || row.account !== accounts[line.account]!.id) {
      problems.push(`debit ${row.bank_tx_id} (${row.amount}) is no debit the bank had on that account`);
      continue;
    }
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  for (const line of run.bank.lines) {
    const seen = counts.get(line) ?? 0;
    const expected = line.delivered ? 1 : 0;
    if (seen !== expected) {
      problems.push(
        `${line.kind} ${line.direction} ${line.bankTxId} of ${lira(line.amount)} on account ${line.account} ` +
          `(${line.delivered ? 'delivered' : 'never delivered'}) is in the ledger ${seen} times, expected ${expected}`,
      );
    }
  }
  return problems;
}

/**
 * The database alone: no two credited transfers are one bank line (same reference and amount, on one account, or a
 * hand entry without an account and a line of an account).
 */
export async function noBankLineCreditedTwice(run: Run): Promise<string[]> {
  const { rows } = await run.world.db.query<{ bank_tx_id: string; a: string; b: string }>(
    `SELECT a.bank_tx_id, a.id::text AS a, b.id::text AS b FROM bank_transfers a
     JOIN bank_transfers b ON a.id < b.id AND a.bank_tx_id = b.bank_tx_id AND a.amount = b.amount
       AND (a.receiving_account_id IS NULL OR b.receiving_account_id IS NULL OR a.receiving_account_id = b.receiving_account_id)
     WHERE a.bank_tx_id LIKE $1 AND a.status IN ('MATCHED', 'ASSIGNED') AND b.status IN ('MATCHED', 'ASSIGNED')`,
    [`${run.bank.prefix}-%`],
  );
  return rows.map((row) => `bank line ${row.bank_tx_id} is credited twice: transfers ${row.a} and ${row.b}`);
}

/**
 * Per receiving account, the money that came in (the bank's credits the ledger was given, each once) equals what the
 * ledger holds for it; and over the run, what it holds is credited to approved deposits + returned or being returned
 * to senders + set aside (whole transfers and approved deposits' remainders) + unmatched + waiting for review
 * (matched to deposits not decided yet) + payouts the bank sent back.
 */
export async function moneyInIsAccountedFor(run: Run): Promise<string[]> {
  const problems: string[] = [];
  const { accounts } = run.world;
  const rows = (await runTransfers(run)).filter((row) => HOLDING.includes(row.status));
  for (let account = 0; account < accounts.length; account += 1) {
    const came = run.bank.lines
      .filter((line) => line.account === account && line.direction === 'credit' && line.delivered)
      .reduce((sum, line) => sum + line.amount, 0n);
    const held = rows
      .filter((row) => lineOf(run, 'credit', row.bank_tx_id, row.amount)?.account === account)
      .reduce((sum, row) => sum + BigInt(row.amount), 0n);
    if (came !== held) problems.push(`account ${account}: the bank brought in ${lira(came)}, the ledger holds ${lira(held)}`);
  }
  const { rows: buckets } = await run.world.db.query<Record<string, string>>(
    `WITH t AS (SELECT * FROM bank_transfers WHERE bank_tx_id LIKE $1 AND status::text = ANY($2::text[])),
     approved AS (SELECT d.* FROM deposit_intents d WHERE d.status = 'APPROVED' AND d.id IN (SELECT intent_id FROM t))
     SELECT
       COALESCE((SELECT SUM(amount) FROM t), 0)::text AS "in",
       COALESCE((SELECT SUM(amount) FROM approved), 0)::text AS credited,
       COALESCE((SELECT SUM(r.amount) FROM sender_returns r WHERE r.intent_id IN (SELECT id FROM approved) AND r.status <> 'REJECTED'), 0)::text AS "remaindersReturned",
       COALESCE((SELECT SUM(remainder_set_aside) FROM approved), 0)::text AS "remaindersSetAside",
       COALESCE((SELECT SUM(amount) FROM t WHERE status IN ('RETURNING', 'RETURNED')), 0)::text AS returned,
       COALESCE((SELECT SUM(amount) FROM t WHERE status = 'SET_ASIDE'), 0)::text AS "setAside",
       COALESCE((SELECT SUM(amount) FROM t WHERE status = 'UNMATCHED'), 0)::text AS unmatched,
       COALESCE((SELECT SUM(amount) FROM t WHERE status = 'PAYOUT_RETURNED'), 0)::text AS "payoutsReturned",
       COALESCE((SELECT SUM(t.amount) FROM t JOIN deposit_intents d ON d.id = t.intent_id
                 WHERE t.status IN ('MATCHED', 'ASSIGNED') AND d.status <> 'APPROVED'), 0)::text AS waiting`,
    [`${run.bank.prefix}-%`, HOLDING],
  );
  const b = buckets[0]!;
  const accounted = [
    'credited',
    'remaindersReturned',
    'remaindersSetAside',
    'returned',
    'setAside',
    'unmatched',
    'payoutsReturned',
    'waiting',
  ]
    .map((key) => BigInt(b[key] ?? '0'))
    .reduce((sum, value) => sum + value, 0n);
  if (accounted !== BigInt(b.in ?? '0')) {
    problems.push(`money in ${lira(BigInt(b.in ?? '0'))} is not what it went to (${lira(accounted)}): ${JSON.stringify(b)}`);
  }
  return problems;
}

/**
 * Live and sandbox money never meet: no payout batch holds sandbox money, no transfer is credited to a deposit of the
 * other mode, and no sandbox payout is sent or returned by a line of a real bank account.
 */
export async function nothingCrossesModes(run: Run): Promise<string[]> {
  const { db } = run.world;
  const batched = await db.query<{ item: string; batch: string }>(
    `SELECT i.id::text AS item, i.batch_id::text AS batch FROM payout_batch_items i
     LEFT JOIN withdrawals w ON w.id = i.withdrawal_id LEFT JOIN sites s ON s.id = w.site_id
     LEFT JOIN sender_returns r ON r.id = i.sender_return_id LEFT JOIN bank_transfers t ON t.id = r.bank_transfer_id
     WHERE (s.livemode = false AND s.id = ANY($1::uuid[])) OR (t.livemode = false AND t.id = ANY($2::uuid[]))`,
    [run.siteIds, run.simTransferIds],
  );
  const crossed = await db.query<{ id: string; livemode: boolean }>(
    `SELECT t.id::text, t.livemode FROM bank_transfers t JOIN deposit_intents d ON d.id = t.intent_id JOIN sites s ON s.id = d.site_id
     WHERE t.livemode <> s.livemode AND d.site_id = ANY($1::uuid[])`,
    [run.siteIds],
  );
  const settled = await db.query<{ entity: string; action: string }>(
    `SELECT a.entity_id AS entity, a.action FROM audit_log a
     WHERE a.actor_id = 'payout-statement' AND (
       a.entity_id IN (SELECT id::text FROM withdrawals WHERE site_id = $1::uuid)
       OR a.entity_id IN (SELECT r.id::text FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
                          WHERE t.livemode = false AND t.id = ANY($2::uuid[])))`,
    [run.sandbox.siteId, run.simTransferIds],
  );
  return [
    ...batched.rows.map((row) => `payout batch ${row.batch} holds sandbox money (item ${row.item})`),
    ...crossed.rows.map((row) => `${row.livemode ? 'live' : 'sandbox'} transfer ${row.id} is credited to a deposit of the other mode`),
    ...settled.rows.map((row) => `sandbox payout ${row.entity} was ${row.action} by a live bank line`),
  ];
}

/**
 * A payout the bank's lines settled was settled by its own line: sent by a debit on its batch's account, for its
 * amount, to its creditor's IBAN or with its EndToEndId (in the database, and a line the model made as that payout's
 * own); returned by its creditor's credit carrying its EndToEndId (as the model made it), never a stranger's.
 */
export async function payoutsConfirmedOnlyByTheirOwnLines(run: Run): Promise<string[]> {
  const problems: string[] = [];
  const { rows } = await run.world.db.query<{
    entity: string;
    action: string;
    bank_tx_id: string | null;
    reference: string | null;
    batch_account: string | null;
    creditor_iban: string | null;
    amount: string | null;
    own_debit: boolean;
  }>(
    `SELECT a.entity_id AS entity, a.action,
       COALESCE(a.metadata->>'bankTxId', w.sent_bank_tx_id, r.sent_bank_tx_id) AS bank_tx_id,
       i.reference, b.receiving_account_id::text AS batch_account, i.creditor_iban, i.amount::text,
       EXISTS (SELECT 1 FROM bank_statement_debits d
               WHERE d.receiving_account_id = b.receiving_account_id
                 AND d.bank_tx_id = COALESCE(w.sent_bank_tx_id, r.sent_bank_tx_id) AND d.amount = i.amount
                 AND (d.counterparty_iban = i.creditor_iban OR upper(d.end_to_end_id) = upper(i.reference))) AS own_debit
     FROM audit_log a
     LEFT JOIN withdrawals w ON w.id::text = a.entity_id
     LEFT JOIN sender_returns r ON r.id::text = a.entity_id
     LEFT JOIN payout_batch_items i ON i.withdrawal_id = w.id OR i.sender_return_id = r.id
     LEFT JOIN payout_batches b ON b.id = i.batch_id
     WHERE a.actor_id = 'payout-statement' AND (w.site_id = ANY($1::uuid[]) OR r.bank_transfer_id IN (
       SELECT id FROM bank_transfers WHERE bank_tx_id LIKE $2 OR id = ANY($3::uuid[])))`,
    [run.siteIds, `${run.bank.prefix}-%`, run.simTransferIds],
  );
  const accountIndex = (id: string | null) => run.world.accounts.findIndex((account) => account.id === id);
  for (const row of rows) {
    const returned = row.action.endsWith('RETURNED');
    const line = run.bank.lines.find((candidate) => candidate.bankTxId === row.bank_tx_id?.slice(0, run.bank.idLength));
    const own =
      line !== undefined &&
      line.kind === (returned ? 'payoutReturn' : 'payout') &&
      line.payoutRef === row.reference &&
      line.account === accountIndex(row.batch_account);
    if (!own) {
      problems.push(
        `payout ${row.entity} (${row.reference}) was ${row.action} by line ${row.bank_tx_id}, which is ` +
          `${line ? `a ${line.kind} line of account ${line.account} about ${line.payoutRef}` : 'no line the bank had'}`,
      );
    }
    if (!returned && !row.own_debit) {
      problems.push(`payout ${row.entity} was ${row.action} without a debit on its batch's account to its IBAN or with its EndToEndId`);
    }
  }
  return problems;
}

/**
 * Four-eyes: a live payout above the threshold that got past review was approved by two different, enabled people
 * (operators of the ledger, never the bootstrap token).
 */
export async function fourEyesByTwoDifferentPeople(run: Run): Promise<string[]> {
  const { rows } = await run.world.db.query<{ id: string; kind: string; amount: string; approvals: unknown }>(
    `SELECT id::text, 'withdrawal' AS kind, amount::text, approvals FROM withdrawals
     WHERE site_id = $1::uuid AND approved_at IS NOT NULL AND amount > $2::bigint
     UNION ALL
     SELECT r.id::text, 'sender return', r.amount::text, r.approvals FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
     WHERE t.livemode AND t.bank_tx_id LIKE $3 AND r.approved_at IS NOT NULL AND r.amount > $2::bigint`,
    [run.live.siteId, run.world.fourEyesAbove.toString(), `${run.bank.prefix}-%`],
  );
  const { rows: people } = await run.world.db.query<{ id: string }>(
    `SELECT id::text FROM operators WHERE disabled_at IS NULL AND role IN ('REVIEWER', 'ADMIN')`,
  );
  const enabled = new Set(people.map((person) => person.id));
  const problems: string[] = [];
  for (const row of rows) {
    const approvers = Array.isArray(row.approvals) ? row.approvals.map((given: { operatorId?: string }) => String(given.operatorId)) : [];
    const distinct = new Set(approvers);
    if (distinct.size < 2 || approvers.some((id) => !enabled.has(id))) {
      problems.push(`${row.kind} ${row.id} of ${lira(BigInt(row.amount))} was approved by ${JSON.stringify(approvers)}`);
    }
  }
  return problems;
}

/**
 * The bank side of the journal check (an account's last statement against what was booked on it, breaks between
 * statements) is left out: the model delivers lines by every channel, some never, in overlapping files with figures of
 * its own, so the accounts never reconcile; money being kept exactly once is what eachBankLineRecordedOnce checks.
 */
const RECONCILIATION_KINDS = new Set(['reconciliation_difference', 'statement_gap']);

/** Problems the journal check reports about the ledger's own books, as strings (to tell the run's own from earlier ones). */
export async function journalProblems(world: World): Promise<string[]> {
  const report = await world.h.ops('GET', '/journal/check');
  if (report.status !== 200) return [`journal check answered ${report.status}`];
  return (report.body.problems as Array<{ kind: string; detail: Record<string, string> }>)
    .filter((problem) => !RECONCILIATION_KINDS.has(problem.kind))
    .map((problem) => JSON.stringify(problem));
}

/** `GET /journal/check` is ok, as far as this run is concerned: no problem naming its records, and none new. */
export async function journalCheckOk(run: Run, before: ReadonlySet<string>): Promise<string[]> {
  const mine = [...run.siteIds, ...run.deposits.map((d) => d.intentId), ...run.payouts.map((p) => p.id)];
  return (await journalProblems(run.world))
    .filter((problem) => problem.startsWith('journal check answered') || !before.has(problem) || mine.some((id) => problem.includes(id)))
    .map((problem) => `journal check: ${problem}`);
}

/** Every invariant, by name, with what it found. */
export async function checkInvariants(run: Run, journalBefore: ReadonlySet<string>): Promise<Record<string, string[]>> {
  return {
    noServerErrors: noServerErrors(run),
    eachBankLineRecordedOnce: await eachBankLineRecordedOnce(run),
    noBankLineCreditedTwice: await noBankLineCreditedTwice(run),
    moneyInIsAccountedFor: await moneyInIsAccountedFor(run),
    nothingCrossesModes: await nothingCrossesModes(run),
    payoutsConfirmedOnlyByTheirOwnLines: await payoutsConfirmedOnlyByTheirOwnLines(run),
    fourEyesByTwoDifferentPeople: await fourEyesByTwoDifferentPeople(run),
    journalCheckOk: await journalCheckOk(run, journalBefore),
  };
}
