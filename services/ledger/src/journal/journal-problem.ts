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
