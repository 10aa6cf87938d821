import type { PrismaClient } from '@kasa/db';
import type { JournalRepository } from './journal.repository.js';
import type { BalanceMovementRepository } from './balance-movements.repository.js';
import type { FollowUpRepository } from '../follow-ups/follow-up.repository.js';
import type { RiskRepository } from '../risk/risk.repository.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';
import type { ErasureRepository } from '../erasure/erasure.repository.js';
import type { CheckedElsewhere, HouseJournalChecks, JournalCheckReport, JournalProblem } from './journal-problem.js';

export type { JournalCheckReport, JournalProblem } from './journal-problem.js';

/** A follow-up still pending this long after its commit means no ledger is doing the work (the worker retries within 5 minutes). */
const FOLLOW_UP_OVERDUE_MS = 60 * 60 * 1000;

const stringify = (row: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)]));

/**
 * The journal's invariants: every transaction sums to zero, every balance equals its entries, no liability
 * is in debit, the journal agrees with the deposit and withdrawal records, and every credited deposit is
 * backed by incoming transfers recorded for it, and every approved deposit accounts for all it received (credited,
 * returned or set aside); the house journal of returns to senders likewise; and each receiving
 * account's last statement balance agrees with what Kasa booked on it, its statements joining up; and no money
 * crossed between live and sandbox (`cross_mode_money`, docs/sandbox.md), and no bank transaction was recorded both by
 * hand and from the bank (`bank_line_credited_twice`), and what a commit promised was done (`promised_work_undone`,
 * statements.md "After the lines commit"), and no audit or journal entry was edited, deleted or written behind its hash
 * chain (`history_altered`, docs/compliance.md), and every movement of a site's balances is a posting of the chart about
 * a record of that site, so a partner's statement can name its cause (`unclassified_movement`), and no withdrawal moved past a sanctions screening hold
 * (`screening_hold_bypassed`, docs/compliance.md), and no anonymised record kept personal data or went unlogged
 * (`personal_data_kept`, docs/compliance.md), and every risk flag is reviewed by its deadline, each review audited
 * (`risk_review_overdue`, `risk_review_unaudited`). Run by tests, by
 * `kasa journal check` and by anyone who doubts a balance.
 */
export async function checkJournal(deps: {
  journal: JournalRepository;
  balanceMovements: BalanceMovementRepository;
  senderReturns: HouseJournalChecks;
  followUps: FollowUpRepository;
  db: PrismaClient;
  screenings: Pick<ScreeningRepository, 'holdsBypassed' | 'depositHoldsBypassed'>;
  erasure: ErasureRepository;
  risk: Pick<RiskRepository, 'problems'>;
  checkedElsewhere: CheckedElsewhere;
}): Promise<JournalCheckReport> {
  const [
    unbalanced,
    mismatches,
    impossible,
    records,
    unbacked,
    unaccounted,
    house,
    accounts,
    crossMode,
    twice,
    undone,
    history,
    unclassified,
    bypassed,
    depositsBypassed,
    kept,
    risk,
  ] = await Promise.all([
    deps.journal.unbalancedTransactions(),
    deps.journal.balanceMismatches(),
    deps.journal.impossibleBalances(),
    deps.journal.recordMismatches(),
    deps.journal.unbackedCredits(),
    deps.journal.unaccountedMoney(),
    deps.senderReturns.houseProblems(),
    deps.checkedElsewhere.reconcileAll(),
    deps.journal.crossModeMoney(),
    deps.journal.bankLinesCreditedTwice(),
    deps.followUps.undone(FOLLOW_UP_OVERDUE_MS),
    deps.checkedElsewhere.verifyHistory(),
    deps.balanceMovements.unclassified(),
    deps.screenings.holdsBypassed(),
    deps.screenings.depositHoldsBypassed(),
    deps.erasure.personalDataKept(deps.db),
    deps.risk.problems(new Date()),
  ]);
  const problems: JournalProblem[] = [
    ...unbalanced.map((row) => ({ kind: 'unbalanced_transaction' as const, detail: stringify({ ...row }) })),
    ...mismatches.map((row) => ({ kind: 'balance_mismatch' as const, detail: stringify({ ...row }) })),
    ...impossible.map((row) => ({ kind: 'impossible_balance' as const, detail: stringify({ ...row }) })),
    ...records.map((row) => ({ kind: 'record_mismatch' as const, detail: stringify({ ...row }) })),
    ...unbacked.map((row) => ({ kind: 'unbacked_credit' as const, detail: stringify({ ...row }) })),
    // No money off the books: per approved deposit, received = credited + returned or in return + set aside.
    ...unaccounted.map((row) => ({ kind: 'unaccounted_money' as const, detail: stringify({ ...row }) })),
    // The house journal (returns to senders) by the same rules; its details name `journal: house`.
    ...house,
    // The bank's side (docs/operations.md, Reconciliation): an account whose statement and bookings disagree, a break between statements.
    ...accounts.flatMap((account) => [
      ...(account.status === 'difference'
        ? [
            {
              kind: 'reconciliation_difference' as const,
              detail: stringify({
                receivingAccountId: account.accountId,
                statementId: account.statementId,
                statementRef: account.statementRef,
                asOf: account.asOf,
                statementClosingBalance: account.statementClosingBalance,
                bookedBalance: account.bookedBalance,
                difference: account.difference,
                unconfirmedLines: account.unconfirmedTotal,
              }),
            },
          ]
        : []),
      ...account.gaps.map((gap) => ({
        kind: 'statement_gap' as const,
        detail: stringify({ receivingAccountId: account.accountId, ...gap }),
      })),
    ]),
    // Live and sandbox money never meet: a row that joins them, whichever way (its `case`).
    ...crossMode.map((row) => ({ kind: 'cross_mode_money' as const, detail: stringify({ ...row }) })),
    // One bank transaction, one transfer: a hand entry and the bank's own line both recorded (bank-transfers/hand-entries.ts).
    ...twice.map((row) => ({ kind: 'bank_line_credited_twice' as const, detail: stringify({ ...row }) })),
    // What a commit promised is done, or still being done: a DONE follow-up whose record never moved, or one overdue.
    ...undone.map((row) => ({
      kind: 'promised_work_undone' as const,
      detail: stringify({ ...row, createdAt: row.createdAt.toISOString() }),
    })),
    // The history nobody may change: each problem of the hash chains' walk, naming the chain, the place and the row.
    // A day's seal (history-seal.ts) that does not verify, no longer matches its chain, or is missing: `day` names it.
    ...history.problems.map(({ problem, source, chain, seq, rowId, day, fromSeq, reason }) => ({
      kind: 'history_altered' as const,
      detail: stringify({
        case: problem,
        source,
        ...(chain ? { chain } : {}),
        ...(seq ? { seq } : {}),
        ...(rowId ? { rowId } : {}),
        ...(day ? { day } : {}),
        ...(fromSeq ? { fromSeq } : {}),
        ...(reason ? { reason } : {}),
      }),
    })),
    // A movement of a site's balance that no posting of the chart makes, or about no record of the site: its partner
    // list and signed statement could not say what moved the money (docs/api.md, Balance transactions).
    ...unclassified.map((row) => ({ kind: 'unclassified_movement' as const, detail: stringify({ ...row }) })),
    // A screening hit holds its payout or deposit (docs/compliance.md): none approved, sent or batched after an OPEN or
    // CONFIRMED hit.
    ...[...bypassed, ...depositsBypassed].map((row) => ({ kind: 'screening_hold_bypassed' as const, detail: stringify({ ...row }) })),
    // Erasure (docs/compliance.md, Retention and erasure): personal data the destruction log says is gone, an anonymised
    // record the log does not name, or a completed request whose user still has records not anonymised.
    ...kept.map((row) => ({ kind: 'personal_data_kept' as const, detail: stringify({ ...row }) })),
    // Risk flags (docs/compliance.md, Risk flags and reports): a flag not reviewed by its deadline, and a flag closed
    // without the RISK.REVIEWED entry every review writes (closed around the API).
    ...risk.overdue.map((row) => ({ kind: 'risk_review_overdue' as const, detail: stringify({ ...row, dueAt: row.dueAt.toISOString() }) })),
    ...risk.unaudited.map((row) => ({
      kind: 'risk_review_unaudited' as const,
      detail: stringify({ ...row, reviewedAt: row.reviewedAt?.toISOString() ?? null }),
    })),
  ];
  return { ok: problems.length === 0, checkedAt: new Date().toISOString(), problems };
}
