import type { StatementLine } from '@kasa/statements';
import { UNMATCHED_REASON_TEXTS, type UnmatchedReason } from './arrival.js';
import { bookingDay } from '../shared/istanbul-day.js';
import { MATCH_REASON_TEXTS, type MatchReason, type Suggestion } from './matching.js';
import type { StraightThroughDecision } from './straight-through.js';

/**
 * What became of each line of a batch, for the import's answer (docs/statements.md, "What the answer says of each
 * line"): the outcome, and the reasons the deciding code gave, as a code a caller can branch on and the words an
 * operator reads. A statement lists its first {@link LINES_LISTED} lines; the counts cover them all.
 */
export const LINES_LISTED = 1000;

export type LineOutcomeKind =
  | 'approved'
  | 'matched'
  | 'suggested'
  | 'unmatched'
  | 'known'
  | 'hand_entry_confirmed'
  | 'bank_line_difference'
  | 'payout_sent'
  | 'payout_returned'
  | 'debit';

export interface LineReason {
  code: string;
  text: string;
}

export interface LineOutcome {
  line: StatementLine;
  lineKey: string;
  outcome: LineOutcomeKind;
  reasons: LineReason[];
  bankTransferId: string | null;
  deposit: { depositId: string; referenceNo: string; siteId: string } | null;
  suggestions: Suggestion[];
  payout: { kind: 'withdrawal' | 'sender_return'; id: string; batchId: string } | null;
  /** The deposit's approval was promised as a follow-up: approved once it is done (outcome `approved`). */
  approvalPromised: boolean;
}

/** Words for the outcomes that are no decision of matching or of the straight-through rule. */
const OTHER_REASONS = {
  known: 'the same line was imported before (the same line key on this account): nothing changed',
  hand_entry_confirmed: 'confirms the transfer an operator recorded by hand: not credited again',
  bank_line_difference: 'answers a transfer recorded by hand but differs from it (amount, or day): kept for an operator',
  payout_sent: 'the bank paid out this batched payout',
  payout_returned: 'the bank brought back this sent withdrawal',
  no_payout: 'no batched payout of this account matches this debit',
  reversal: 'a reversal: it never marks a payout sent',
  approval_pending: 'approved straight through once the follow-up runs (the follow-up worker finishes it)',
} as const;

const reason = (code: keyof typeof OTHER_REASONS): LineReason => ({ code, text: OTHER_REASONS[code] });
export const matchReasons = (reasons: readonly MatchReason[]): LineReason[] =>
  reasons.map((code) => ({ code, text: MATCH_REASON_TEXTS[code] }));
export const unmatchedReason = (code: UnmatchedReason): LineReason => ({ code, text: UNMATCHED_REASON_TEXTS[code] });

/** A line's outcome with nothing decided yet. */
export function outcomeOf(line: StatementLine, lineKey: string, outcome: LineOutcomeKind, reasons: LineReason[] = []): LineOutcome {
  return {
    line,
    lineKey,
    outcome,
    reasons,
    bankTransferId: null,
    deposit: null,
    suggestions: [],
    payout: null,
    approvalPromised: false,
  };
}

export const knownLine = (line: StatementLine, lineKey: string) => outcomeOf(line, lineKey, 'known', [reason('known')]);

/** A debit line: a payout the bank sent, or money out that no payout explains (kept for the payouts). */
export function debitOutcome(line: StatementLine, lineKey: string, payout: LineOutcome['payout']): LineOutcome {
  if (payout) return { ...outcomeOf(line, lineKey, 'payout_sent', [reason('payout_sent')]), payout };
  return outcomeOf(line, lineKey, 'debit', [reason(line.reversal ? 'reversal' : 'no_payout')]);
}

export function handEntryOutcome(line: StatementLine, lineKey: string, answer: 'confirmed' | 'difference', bankTransferId: string) {
  const kind = answer === 'confirmed' ? 'hand_entry_confirmed' : 'bank_line_difference';
  return { ...outcomeOf(line, lineKey, kind, [reason(kind)]), bankTransferId };
}

export function returnOutcome(line: StatementLine, lineKey: string, withdrawal: { id: string; batchId: string; bankTransferId: string }) {
  return {
    ...outcomeOf(line, lineKey, 'payout_returned', [reason('payout_returned')]),
    bankTransferId: withdrawal.bankTransferId,
    payout: { kind: 'withdrawal' as const, id: withdrawal.id, batchId: withdrawal.batchId },
  };
}

/** The straight-through rule's decision on a matched line: a promised approval, or the reason it waits for an operator. */
export function applyDecision(outcome: LineOutcome, decision: StraightThroughDecision | { approve: false; refusal: 'split' }): void {
  if (decision.approve) {
    outcome.approvalPromised = true;
    return;
  }
  outcome.reasons.unshift({ code: decision.refusal, text: 'reason' in decision ? decision.reason : MATCH_REASON_TEXTS.split });
}

/** After the follow-ups ran: an approval done makes the line `approved`; one not done says why. */
export function settleApproval(outcome: LineOutcome, followUp: { status: string; outcome: string | null } | undefined): void {
  if (!outcome.approvalPromised) return;
  if (followUp?.status === 'DONE') outcome.outcome = 'approved';
  else if (followUp?.status === 'SKIPPED') outcome.reasons.unshift({ code: 'approval_skipped', text: followUp.outcome ?? 'skipped' });
  else outcome.reasons.unshift(reason('approval_pending'));
}

/** The answer's form of a line (JSON: the amount as a string, the booking day beside the instant). */
export function toImportedLine(o: LineOutcome) {
  return {
    lineKey: o.lineKey,
    bankTxId: o.line.bankTxId,
    direction: o.line.direction,
    amount: o.line.amount.toString(),
    bookedAt: o.line.bookedAt.toISOString(),
    bookingDay: bookingDay(o.line.bookedAt),
    timeKnown: o.line.timeKnown,
    counterpartyName: o.line.counterpartyName,
    outcome: o.outcome,
    reasons: o.reasons,
    bankTransferId: o.bankTransferId,
    deposit: o.deposit,
    suggestions: o.suggestions.slice(0, 3).map((s) => ({ depositId: s.intentId, referenceNo: s.referenceNo, confidence: s.confidence })),
    payout: o.payout,
  };
}
