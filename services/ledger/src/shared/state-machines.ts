import type { DepositStatus, WithdrawalStatus } from '@kasa/db';
import { AppError } from '@kasa/http';

/**
 * docs/api.md (States) as data: which operator action moves a record from which statuses to which. Arrival of
 * money and expiry (RESERVED -> PENDING_REVIEW | AUTO_CANCELLED, AUTO_CANCELLED -> LATE_ARRIVAL) are not
 * operator actions; bank-transfers/arrival.ts and expiry/ own those.
 */
export const INTENT_ACTIONS = {
  approve: { from: ['PENDING_REVIEW', 'LATE_ARRIVAL'], to: 'APPROVED' },
  reject: { from: ['PENDING_REVIEW', 'LATE_ARRIVAL'], to: 'REJECTED' },
} as const satisfies Record<string, { from: readonly DepositStatus[]; to: DepositStatus }>;

export const WITHDRAWAL_ACTIONS = {
  approve: { from: ['PENDING_REVIEW'], to: 'APPROVED' },
  reject: { from: ['PENDING_REVIEW', 'APPROVED'], to: 'REJECTED' },
  markSent: { from: ['APPROVED'], to: 'SENT' },
  markReturned: { from: ['SENT'], to: 'RETURNED' },
} as const satisfies Record<string, { from: readonly WithdrawalStatus[]; to: WithdrawalStatus }>;

export type IntentAction = keyof typeof INTENT_ACTIONS;
export type WithdrawalAction = keyof typeof WITHDRAWAL_ACTIONS;

const VERB: Record<IntentAction | WithdrawalAction, string> = {
  approve: 'approve',
  reject: 'reject',
  markSent: 'mark as sent',
  markReturned: 'mark as returned',
};

function assertFrom(kind: string, action: IntentAction | WithdrawalAction, from: readonly string[], current: string): void {
  if (from.includes(current)) return;
  throw new AppError(
    'conflict',
    `Cannot ${VERB[action]} a ${kind} in status ${current}; allowed only from ${from.join(' or ')}. Nothing was changed.`,
  );
}

/** Throws a 409 `conflict` naming the current status when `action` is not allowed from it. */
export function assertIntentAction(action: IntentAction, current: DepositStatus): DepositStatus {
  assertFrom('deposit intent', action, INTENT_ACTIONS[action].from, current);
  return INTENT_ACTIONS[action].to;
}

export function assertWithdrawalAction(action: WithdrawalAction, current: WithdrawalStatus): WithdrawalStatus {
  assertFrom('withdrawal', action, WITHDRAWAL_ACTIONS[action].from, current);
  return WITHDRAWAL_ACTIONS[action].to;
}
