import type { BankTransferStatus } from '@kasa/db';
import { AppError } from '@kasa/http';
import { nextStatus, type StateMove } from '../shared/state-table.js';

/**
 * The operators' moves of a transfer no deposit has, as data. Arrival (UNMATCHED or MATCHED when recorded)
 * and returns to senders (-> RETURNING -> RETURNED, or back) are not here: bank-transfer.use-case.ts and
 * returns/ own those, since whether money may go back depends on its deposit too.
 */
export const TRANSFER_ACTIONS = {
  assign: { from: ['UNMATCHED', 'SET_ASIDE'], to: 'ASSIGNED' },
  setAside: { from: ['UNMATCHED'], to: 'SET_ASIDE' },
} as const satisfies Record<string, StateMove<BankTransferStatus>>;

export type TransferAction = keyof typeof TRANSFER_ACTIONS;

const DONE: Record<TransferAction, string> = { assign: 'assigned', setAside: 'set aside' };

/** Throws a 409 `conflict` (`transfer_settled`) naming the current status when `action` is not allowed from it. */
export function assertTransferAction(action: TransferAction, current: BankTransferStatus): BankTransferStatus {
  const move: StateMove<BankTransferStatus> = TRANSFER_ACTIONS[action];
  return nextStatus(move, current, () =>
    AppError.conflict(
      'transfer_settled',
      `The transfer is ${current}; only ${move.from.join(' or ')} transfers can be ${DONE[action]}. Nothing was changed.`,
    ),
  );
}
