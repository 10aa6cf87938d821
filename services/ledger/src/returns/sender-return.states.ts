import type { SenderReturnStatus } from '@kasa/db';
import { AppError } from '@kasa/http';
import { nextStatus, type StateMove } from '../shared/state-table.js';

/**
 * docs/operations.md (Returns to senders) as data: which operator action moves a return from which statuses to
 * which. Asking for a return creates it PENDING_REVIEW (sender-return.use-case.ts `requestSenderReturn`).
 */
export const RETURN_ACTIONS = {
  approve: { from: ['PENDING_REVIEW'], to: 'APPROVED' },
  reject: { from: ['PENDING_REVIEW', 'APPROVED'], to: 'REJECTED' },
  markSent: { from: ['APPROVED'], to: 'SENT' },
} as const satisfies Record<string, StateMove<SenderReturnStatus>>;

export type ReturnAction = keyof typeof RETURN_ACTIONS;

const VERB: Record<ReturnAction, string> = { approve: 'approve', reject: 'reject', markSent: 'mark sent' };

/** Throws a 409 `conflict` (`invalid_transition`) naming the current status when `action` is not allowed from it. */
export function assertReturnAction(action: ReturnAction, current: SenderReturnStatus): SenderReturnStatus {
  const move: StateMove<SenderReturnStatus> = RETURN_ACTIONS[action];
  return nextStatus(move, current, () =>
    AppError.conflict('invalid_transition', `The return is ${current}; it cannot ${VERB[action]} now. Nothing was changed.`),
  );
}
