import type { DepositStatus } from '@kasa/db';
import { cannot, nextStatus, type StateMove } from '../shared/state-table.js';

/**
 * docs/api.md (States) as data: which operator action moves an intent from which statuses to which. Arrival of
 * money and expiry (RESERVED -> PENDING_REVIEW | AUTO_CANCELLED, AUTO_CANCELLED -> LATE_ARRIVAL) are not
 * operator actions; bank-transfers/arrival.ts and expiry/ own those.
 */
export const DEPOSIT_ACTIONS = {
  approve: { from: ['PENDING_REVIEW', 'LATE_ARRIVAL'], to: 'APPROVED' },
  reject: { from: ['PENDING_REVIEW', 'LATE_ARRIVAL'], to: 'REJECTED' },
} as const satisfies Record<string, StateMove<DepositStatus>>;

export type DepositAction = keyof typeof DEPOSIT_ACTIONS;

/** Throws a 409 `conflict` (`invalid_transition`) naming the current status when `action` is not allowed from it. */
export function assertDepositAction(action: DepositAction, current: DepositStatus): DepositStatus {
  const move: StateMove<DepositStatus> = DEPOSIT_ACTIONS[action];
  return nextStatus(move, current, () => cannot('deposit intent', action, move.from, current));
}
