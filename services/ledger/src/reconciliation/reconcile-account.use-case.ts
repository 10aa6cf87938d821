import type { ResponseOf } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { isoOrNull } from '../shared/iso.js';
import { isUuid } from '../shared/http-guards.js';
import { bookingDay, istanbulDayAt } from '../shared/istanbul-day.js';
import type { ReconciliationRepository, StatementRow, Window } from './reconciliation.repository.js';

export type AccountReconciliation = ResponseOf<'AccountReconciliation'>;
type Gap = AccountReconciliation['gaps'][number];

export interface ReconciliationDeps {
  reconciliation: ReconciliationRepository;
}

/** The unconfirmed lines an answer lists; `unconfirmedTotal` counts them all. */
export const UNCONFIRMED_LINES_SHOWN = 50;

const NO_STATEMENT = 'No statement of this account has been imported; import one to reconcile against.';

/**
 * A statement as reconciliation reads it: a period of dates alone (MT940's balances) runs from the start of its first
 * Istanbul day to the end of its last, so the same day in a camt.053 with times and in an MT940 is one span, in order.
 */
function asBooked(s: StatementRow): StatementRow {
  if (s.periodTimeKnown) return s;
  return {
    ...s,
    periodFrom: s.periodFrom && istanbulDayAt(s.periodFrom).start,
    periodTo: s.periodTo && istanbulDayAt(s.periodTo).end,
  };
}

/** The same statement delivered twice (another format, another number): the same booking days and the same balances. */
const sameStatement = (a: StatementRow, b: StatementRow): boolean =>
  a.openingBalance === b.openingBalance &&
  a.closingBalance === b.closingBalance &&
  bookingDay(startOf(a)) === bookingDay(startOf(b)) &&
  bookingDay(endOf(a)) === bookingDay(endOf(b));

/** The instant a statement ends: its period end, else its latest line, else when it was imported. */
const endOf = (s: StatementRow): Date => s.periodTo ?? s.lastLineAt ?? s.periodFrom ?? s.importedAt;
/** The instant a statement starts: its period start, else its first line, else its end. */
const startOf = (s: StatementRow): Date => s.periodFrom ?? s.firstLineAt ?? endOf(s);

/** Statements in the order the bank issued them: by period end, then start, then import time. */
function chronological(statements: StatementRow[]): StatementRow[] {
  return [...statements].sort(
    (a, b) =>
      endOf(a).getTime() - endOf(b).getTime() ||
      startOf(a).getTime() - startOf(b).getTime() ||
      a.importedAt.getTime() - b.importedAt.getTime() ||
      (a.id < b.id ? -1 : 1),
  );
}

/**
 * Where consecutive statements do not join: the later one opens on another balance than the earlier closed on. A
 * statement that is the one before it again (the same day's camt.053 and MT940) joins it.
 */
function gapsOf(statements: StatementRow[]): Gap[] {
  const gaps: Gap[] = [];
  // `after`: the statement the gap follows; `before`: the one it precedes.
  statements.forEach((before, i) => {
    const after = statements[i - 1];
    if (!after || before.openingBalance === after.closingBalance || sameStatement(after, before)) return;
    gaps.push({
      afterStatementId: after.id,
      afterStatementRef: after.statementRef,
      closingBalance: after.closingBalance.toString(),
      beforeStatementId: before.id,
      beforeStatementRef: before.statementRef,
      openingBalance: before.openingBalance.toString(),
      difference: (before.openingBalance - after.closingBalance).toString(),
      from: isoOrNull(after.periodTo ?? after.lastLineAt),
      to: isoOrNull(before.periodFrom ?? before.firstLineAt),
    });
  });
  return gaps;
}

/**
 * Reconciles one receiving account (docs/operations.md, Reconciliation): the latest statement's closing balance
 * against what Kasa booked, counting from the earliest statement's opening balance. Every line a statement of the
 * account carries counts (a statement is its own window: a bank stamping a period by the day would otherwise cut its
 * lines off); a line no statement carries (the connector's, or one recorded by hand) counts when it was booked from
 * the earliest statement's start to the latest one's end, both included.
 */
export async function reconcileAccount(deps: ReconciliationDeps, accountId: string): Promise<AccountReconciliation> {
  const account = isUuid(accountId) ? await deps.reconciliation.account(accountId) : null;
  if (!account) throw new AppError('not_found', 'No receiving account with this id.');
  return reconciliationOf(deps, account);
}

/** Every receiving account's reconciliation, oldest account first. */
export async function reconcileAll(deps: ReconciliationDeps): Promise<AccountReconciliation[]> {
  const accounts = await deps.reconciliation.accounts();
  const out: AccountReconciliation[] = [];
  // One account at a time: a handful of accounts, and each is three small queries.
  for (const account of accounts) out.push(await reconciliationOf(deps, account));
  return out;
}

async function reconciliationOf(
  deps: ReconciliationDeps,
  account: { id: string; bankName: string; iban: string },
): Promise<AccountReconciliation> {
  const statements = chronological((await deps.reconciliation.statementsOf(account.id)).map(asBooked));
  const earliest = statements[0];
  const latest = statements.at(-1);
  const base = { accountId: account.id, bankName: account.bankName, iban: account.iban, statements: statements.length };
  if (!earliest || !latest) {
    return {
      ...base,
      status: 'no_statement',
      reason: NO_STATEMENT,
      statementClosingBalance: null,
      bookedBalance: null,
      difference: null,
      asOf: null,
      anchorAt: null,
      statementId: null,
      statementRef: null,
      counts: { statementCredits: 0, statementDebits: 0, unconfirmedCredits: 0, unconfirmedDebits: 0 },
      unconfirmedLines: [],
      unconfirmedTotal: 0,
      gaps: [],
    };
  }
  const asOf = latest.periodTo ?? latest.lastLineAt ?? latest.importedAt;
  // The window's ends reach the statements' own lines, should a line be stamped outside the period the bank gave.
  const window: Window = {
    from: minDate(startOf(earliest), earliest.firstLineAt),
    to: maxDate(asOf, latest.lastLineAt),
  };
  const [totals, lines] = await Promise.all([
    deps.reconciliation.totals(account.id, window),
    deps.reconciliation.unconfirmedLines(account.id, window, UNCONFIRMED_LINES_SHOWN),
  ]);
  const booked =
    earliest.openingBalance +
    totals.statementCredits.total -
    totals.statementDebits.total +
    totals.unconfirmedCredits.total -
    totals.unconfirmedDebits.total;
  const difference = latest.closingBalance - booked;
  return {
    ...base,
    status: difference === 0n ? 'reconciled' : 'difference',
    reason: null,
    statementClosingBalance: latest.closingBalance.toString(),
    bookedBalance: booked.toString(),
    difference: difference.toString(),
    asOf: asOf.toISOString(),
    anchorAt: startOf(earliest).toISOString(),
    statementId: latest.id,
    statementRef: latest.statementRef,
    counts: {
      statementCredits: totals.statementCredits.count,
      statementDebits: totals.statementDebits.count,
      unconfirmedCredits: totals.unconfirmedCredits.count,
      unconfirmedDebits: totals.unconfirmedDebits.count,
    },
    unconfirmedLines: lines.map((line) => ({
      lineId: line.id,
      direction: line.direction,
      bankTxId: line.bankTxId,
      amount: line.amount.toString(),
      bookedAt: line.bookedAt.toISOString(),
      timeKnown: line.timeKnown,
      counterpartyName: line.counterpartyName,
      bankTransferId: line.direction === 'credit' ? line.id : null,
    })),
    unconfirmedTotal: totals.unconfirmedCredits.count + totals.unconfirmedDebits.count,
    gaps: gapsOf(statements),
  };
}

const minDate = (a: Date, b: Date | null): Date => (b && b < a ? b : a);
const maxDate = (a: Date, b: Date | null): Date => (b && b > a ? b : a);
