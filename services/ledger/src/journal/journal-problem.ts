import type { ResponseOf } from '@kasa/contracts';
import type { HistoryReport } from '../history/history-report.js';

/** What the journal check reports, and the port through which it reads a journal kept beside the site journal. */

export interface JournalProblem {
  kind:
    | 'unbalanced_transaction'
    | 'balance_mismatch'
    | 'impossible_balance'
    | 'record_mismatch'
    | 'unbacked_credit'
    | 'unaccounted_money'
    | 'reconciliation_difference'
    | 'statement_gap'
    | 'cross_mode_money'
    | 'bank_line_credited_twice'
    | 'promised_work_undone'
    | 'history_altered'
    | 'unclassified_movement'
    | 'screening_hold_bypassed'
    | 'personal_data_kept'
    | 'risk_review_overdue'
    | 'risk_review_unaudited';
  detail: Record<string, string>;
}

export interface JournalCheckReport {
  ok: boolean;
  checkedAt: string;
  problems: JournalProblem[];
}

/** A journal kept by a feature of its own (the house journal of returns to senders), checked by the same rules. */
export interface HouseJournalChecks {
  /** Its problems, in the journal check's terms. */
  houseProblems(): Promise<JournalProblem[]>;
}

/**
 * What the journal check reports of the reconciliation and of the history chains, which those features work out
 * themselves: the composition root (ledger-deps.ts) wires their use cases in, so the journal does not import them.
 */
export interface CheckedElsewhere {
  /** Every receiving account's last statement against what Kasa booked on it (reconciliation/). */
  reconcileAll(): Promise<ResponseOf<'AccountReconciliation'>[]>;
  /** The walk of the audit and journal hash chains and their daily seals (history/). */
  verifyHistory(): Promise<HistoryReport>;
}
