import type { WithdrawalStatus } from '@kasa/db';
import { cannot, nextStatus, type StateMove } from '../shared/state-table.js';

/** docs/api.md (States) as data: which operator action moves a withdrawal from which statuses to which. */
export const WITHDRAWAL_ACTIONS = {
  approve: { from: ['PENDING_REVIEW'], to: 'APPROVED' },
  reject: { from: ['PENDING_REVIEW', 'APPROVED'], to: 'REJECTED' },
  markSent: { from: ['APPROVED'], to: 'SENT' },
  markReturned: { from: ['SENT'], to: 'RETURNED' },
} as const satisfies Record<string, StateMove<WithdrawalStatus>>;

export type WithdrawalAction = keyof typeof WITHDRAWAL_ACTIONS;

const VERB: Record<WithdrawalAction, string> = {
  approve: 'approve',
  reject: 'reject',
  markSent: 'mark as sent',
  markReturned: 'mark as returned',
};

/** Throws a 409 `conflict` (`invalid_transition`) naming the current status when `action` is not allowed from it. */
export function assertWithdrawalAction(action: WithdrawalAction, current: WithdrawalStatus): WithdrawalStatus {
  const move: StateMove<WithdrawalStatus> = WITHDRAWAL_ACTIONS[action];
  return nextStatus(move, current, () => cannot('withdrawal', VERB[action], move.from, current));
}
