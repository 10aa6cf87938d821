import type { BalanceAdjustmentStatus } from '@kasa/db';
import { cannot, nextStatus, type StateMove } from '../shared/state-table.js';

/** docs/operations.md (Balance adjustments) as data: which admin action moves an adjustment from which statuses to which. */
export const BALANCE_ADJUSTMENT_ACTIONS = {
  approve: { from: ['PENDING_REVIEW'], to: 'APPLIED' },
  reject: { from: ['PENDING_REVIEW'], to: 'REJECTED' },
} as const satisfies Record<string, StateMove<BalanceAdjustmentStatus>>;

export type BalanceAdjustmentAction = keyof typeof BALANCE_ADJUSTMENT_ACTIONS;

const VERB: Record<BalanceAdjustmentAction, string> = { approve: 'apply', reject: 'reject' };

/** Throws a 409 `conflict` (`invalid_transition`) naming the current status when `action` is not allowed from it. */
export function assertBalanceAdjustmentAction(action: BalanceAdjustmentAction, current: BalanceAdjustmentStatus): BalanceAdjustmentStatus {
  const move: StateMove<BalanceAdjustmentStatus> = BALANCE_ADJUSTMENT_ACTIONS[action];
  return nextStatus(move, current, () => cannot('balance adjustment', VERB[action], move.from, current));
}
