import type { Deposit, Site } from '@kasa/db';
import type { MatchReason } from './matching.js';

/** A site's straight-through rule, as PATCH /ops/v1/sites/:siteId sets it. */
export type StraightThroughRule = Pick<Site, 'autoApproveEnabled' | 'autoApproveMaxAmount' | 'autoApproveRequireSenderMatch'>;

/** What the rule reads of one recorded line: the money, why it matched, and the deposit before and after it. */
export interface StraightThroughCase {
  amount: bigint;
  reasons: readonly MatchReason[];
  before: Pick<Deposit, 'status'>;
  after: Pick<Deposit, 'status' | 'requestedAmount' | 'receivedAmount' | 'externalUserLabel'>;
}

/**
 * Why a deposit was not approved straight through (logged, and listed with the line in the import's answer; the
 * deposit waits for an operator as before), each with the words an operator reads.
 */
export const STRAIGHT_THROUGH_REFUSALS = {
  rule_off: 'straight-through is off for this site',
  not_exact_reference: 'the description does not carry the exact reference',
  split: 'the deposit already had money from another line: an operator weighs split payments',
  late: 'arrived after the deposit expired',
  amount_short: "short of the deposit's amount",
  amount_over: "more than the deposit's amount",
  above_max_amount: "amount above the site's straight-through limit",
  no_sender_label: 'the site requires the sender to match, and the deposit has no name of the user to compare',
  sender_not_matched: 'sender name does not match the user',
} as const;
export type StraightThroughRefusal = keyof typeof STRAIGHT_THROUGH_REFUSALS;

export type StraightThroughDecision = { approve: true } | { approve: false; refusal: StraightThroughRefusal; reason: string };

/**
 * Whether the service approves a deposit itself: only when the site turned the rule on, and its money is one
 * on-time transfer with the exact reference and exactly the requested amount, at most the rule's `maxAmount`,
 * from a sender whose name matches the partner's label of the user when the rule requires it (a deposit without a
 * label then never qualifies). Everything else waits for an operator, as without the rule, with the first reason that
 * kept it from the rule. Pure: the caller approves through the same transition as an operator.
 */
export function straightThrough(rule: StraightThroughRule, line: StraightThroughCase): StraightThroughDecision {
  const refuse = (refusal: StraightThroughRefusal) => ({ approve: false as const, refusal, reason: STRAIGHT_THROUGH_REFUSALS[refusal] });
  if (!rule.autoApproveEnabled) return refuse('rule_off');
  if (!line.reasons.includes('reference_exact')) return refuse('not_exact_reference');
  if (line.reasons.includes('split') || line.before.status === 'PENDING_REVIEW' || line.before.status === 'LATE_ARRIVAL')
    return refuse('split');
  if (line.reasons.includes('late') || line.after.status !== 'PENDING_REVIEW') return refuse('late');
  if (!line.reasons.includes('amount_exact') || line.after.receivedAmount !== line.after.requestedAmount) {
    return refuse((line.after.receivedAmount ?? 0n) < line.after.requestedAmount ? 'amount_short' : 'amount_over');
  }
  if (line.amount > rule.autoApproveMaxAmount) return refuse('above_max_amount');
  if (rule.autoApproveRequireSenderMatch && !line.reasons.includes('sender_matches_user')) {
    return refuse(line.after.externalUserLabel ? 'sender_not_matched' : 'no_sender_label');
  }
  return { approve: true };
}
