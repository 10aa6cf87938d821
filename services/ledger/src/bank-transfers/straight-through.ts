import type { Deposit, Site } from '@kasa/db';
import type { MatchReason } from './matching.js';

/** A site's straight-through rule, as PATCH /ops/v1/sites/:siteId sets it. */
export type StraightThroughRule = Pick<Site, 'autoApproveEnabled' | 'autoApproveMaxAmount' | 'autoApproveRequireSenderMatch'>;

/** What the rule reads of one recorded line: the money, why it matched, and the deposit before and after it. */
export interface StraightThroughCase {
  amount: bigint;
  reasons: readonly MatchReason[];
  before: Pick<Deposit, 'status'>;
  after: Pick<Deposit, 'status' | 'requestedAmount' | 'receivedAmount'>;
}

/** Why a deposit was not approved straight through (logged; the deposit waits for an operator as before). */
export type StraightThroughRefusal =
  'rule_off' | 'not_exact_reference' | 'not_exact_amount' | 'above_max_amount' | 'sender_not_matched' | 'late' | 'split';

/**
 * Whether the service approves a deposit itself: only when the site turned the rule on, and its money is one
 * on-time transfer with the exact reference and exactly the requested amount, at most the rule's `maxAmount`,
 * from a sender whose name matches the partner's label of the user when the rule requires it (a deposit without a
 * label then never qualifies). Everything else waits for an operator, as without the rule. Pure: the caller
 * approves through the same transition as an operator.
 */
export function straightThrough(
  rule: StraightThroughRule,
  line: StraightThroughCase,
): { approve: true } | { approve: false; refusal: StraightThroughRefusal } {
  const refuse = (refusal: StraightThroughRefusal) => ({ approve: false as const, refusal });
  if (!rule.autoApproveEnabled) return refuse('rule_off');
  if (!line.reasons.includes('reference_exact')) return refuse('not_exact_reference');
  if (line.reasons.includes('split') || line.before.status === 'PENDING_REVIEW' || line.before.status === 'LATE_ARRIVAL')
    return refuse('split');
  if (line.reasons.includes('late') || line.after.status !== 'PENDING_REVIEW') return refuse('late');
  if (!line.reasons.includes('amount_exact') || line.after.receivedAmount !== line.after.requestedAmount) return refuse('not_exact_amount');
  if (line.amount > rule.autoApproveMaxAmount) return refuse('above_max_amount');
  if (rule.autoApproveRequireSenderMatch && !line.reasons.includes('sender_matches_user')) return refuse('sender_not_matched');
  return { approve: true };
}
