import type { BankTransfer, BankTransferStatus, Prisma, SenderReturn } from '@kasa/db';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import { actorOf } from '../operators/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import { lockRow } from '../shared/review.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { LedgerDeps } from '../ledger-deps.js';
import { HousePostings } from './house-journal.js';

type Tx = Prisma.TransactionClient;
type ReturnDeps = Pick<LedgerDeps, 'db' | 'logger' | 'clock' | 'houseJournal' | 'bankTransfers'>;

const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/** A return as the ops API shows it (the sender's IBAN in full: operators pay it back to it). */
export function toOpsSenderReturn(row: SenderReturn) {
  return {
    returnId: row.id,
    bankTransferId: row.bankTransferId,
    status: row.status,
    amount: row.amount.toString(),
    currency: row.currency,
    senderName: row.senderName,
    senderIban: row.senderIban,
    reason: row.reason,
    requestedBy: row.requestedBy,
    createdAt: row.createdAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
    sentAt: row.sentAt?.toISOString() ?? null,
    sentBankTxId: row.sentBankTxId,
    rejectedAt: row.rejectedAt?.toISOString() ?? null,
    rejectedReason: row.rejectedReason,
  };
}

/** Whether this transfer's money belongs to no deposit, so it may go back: unmatched, set aside, or a rejected deposit's. */
async function returnable(tx: Tx, transfer: BankTransfer): Promise<boolean> {
  if (transfer.status === 'UNMATCHED' || transfer.status === 'SET_ASIDE') return true;
  if ((transfer.status === 'MATCHED' || transfer.status === 'ASSIGNED') && transfer.intentId) {
    const intent = await tx.depositIntent.findUnique({ where: { id: transfer.intentId }, select: { status: true } });
    return intent?.status === 'REJECTED';
  }
  return false;
}

/**
 * Asks for a transfer's money to go back to its sender: a return `PENDING_REVIEW` for the whole amount, the
 * transfer `RETURNING` (out of every queue, no longer assignable). Only money no deposit kept: an unmatched
 * or set-aside transfer, or one that paid a rejected deposit. No money moves yet.
 */
export async function requestSenderReturn(deps: ReturnDeps, request: OperatorRequest, bankTransferId: string, reason: string) {
  if (!isUuid(bankTransferId)) throw new AppError('not_found', 'No bank transfer with this id.');
  const actor = actorOf(request.caller);
  const created = await deps.db.$transaction(async (tx) => {
    const transfer = await deps.bankTransfers.lock(tx, bankTransferId);
    if (!transfer) throw new AppError('not_found', 'No bank transfer with this id.');
    if (!(await returnable(tx, transfer))) {
      throw new AppError(
        'conflict',
        `The transfer is ${transfer.status}${transfer.intentId ? ' and its deposit kept it' : ''}; only money no deposit kept ` +
          '(unmatched, set aside, or paid for a rejected deposit) can go back to its sender. Nothing was changed.',
      );
    }
    const row = await tx.senderReturn.create({
      data: {
        bankTransferId,
        amount: transfer.amount,
        currency: transfer.currency,
        senderName: transfer.senderName,
        senderIban: transfer.senderIban,
        reason: reason.trim(),
        transferStatusBefore: transfer.status,
        requestedBy: actor.id,
      },
    });
    await deps.bankTransfers.settle(tx, bankTransferId, transfer.status, { status: 'RETURNING' });
    await writeAudit(tx, {
      actor,
      action: 'SENDER_RETURN.REQUESTED',
      entityType: 'sender_return',
      entityId: row.id,
      metadata: { bankTransferId, from: transfer.status, to: 'RETURNING', reason: row.reason, amount: row.amount.toString() },
    });
    return row;
  }, TRANSACTION_OPTIONS);
  deps.logger.info('sender return requested', {
    requestId: request.requestId,
    returnId: created.id,
    bankTransferId,
    amount: created.amount,
    senderIban: maskIban(created.senderIban),
  });
  return toOpsSenderReturn(created);
}

type Step = 'approve' | 'reject' | 'mark-sent';

const FROM: Record<Step, SenderReturn['status'][]> = {
  approve: ['PENDING_REVIEW'],
  reject: ['PENDING_REVIEW', 'APPROVED'],
  'mark-sent': ['APPROVED'],
};

/**
 * One step of a return's review and payout, in one transaction with its house journal posting and audit entry:
 * approve (the money is owed back: bank_clearing -> sender_refunds_payable), reject (a reason; after approval
 * the posting is reversed; the transfer goes back to where it was), mark sent (sender_refunds_payable ->
 * refunds_settled; the transfer is RETURNED). A step from any other status is a 409 and changes nothing.
 */
export async function stepSenderReturn(
  deps: ReturnDeps,
  request: OperatorRequest,
  returnId: string,
  step: Step,
  input: { reason?: string; bankTxId?: string } = {},
) {
  if (!isUuid(returnId)) throw new AppError('not_found', 'No return with this id.');
  const actor = actorOf(request.caller);
  const now = deps.clock.now();
  const updated = await deps.db.$transaction(async (tx) => {
    if (!(await lockRow(tx, 'sender_returns', returnId))) throw new AppError('not_found', 'No return with this id.');
    const current = (await tx.senderReturn.findUnique({ where: { id: returnId } })) as SenderReturn;
    if (!FROM[step].includes(current.status)) {
      throw new AppError('conflict', `The return is ${current.status}; it cannot ${step.replace('-', ' ')} now. Nothing was changed.`);
    }
    let to: SenderReturn['status'];
    let transactionId: string | null = null;
    if (step === 'approve') {
      to = 'APPROVED';
      transactionId = await deps.houseJournal.post(tx, returnId, HousePostings.returnApproved(current.amount));
    } else if (step === 'mark-sent') {
      to = 'SENT';
      transactionId = await deps.houseJournal.post(tx, returnId, HousePostings.returnSent(current.amount));
      await deps.bankTransfers.settle(tx, current.bankTransferId, 'RETURNING', { status: 'RETURNED' });
    } else {
      to = 'REJECTED';
      if (current.status === 'APPROVED')
        transactionId = await deps.houseJournal.post(tx, returnId, HousePostings.returnWithdrawn(current.amount));
      await deps.bankTransfers.settle(tx, current.bankTransferId, 'RETURNING', {
        status: current.transferStatusBefore as BankTransferStatus,
      });
    }
    const row = await tx.senderReturn.update({
      where: { id: returnId },
      data: {
        status: to,
        ...(step === 'approve' ? { approvedAt: now } : {}),
        ...(step === 'mark-sent' ? { sentAt: now, sentBankTxId: input.bankTxId ?? null } : {}),
        ...(step === 'reject' ? { rejectedAt: now, rejectedReason: input.reason?.trim() ?? null } : {}),
      },
    });
    await writeAudit(tx, {
      actor,
      action: `SENDER_RETURN.${to}`,
      entityType: 'sender_return',
      entityId: returnId,
      metadata: {
        from: current.status,
        to,
        bankTransferId: current.bankTransferId,
        amount: current.amount.toString(),
        ...(input.reason ? { reason: input.reason.trim() } : {}),
        ...(input.bankTxId ? { bankTxId: input.bankTxId } : {}),
        ...(transactionId ? { journalTransactionId: transactionId } : {}),
      },
    });
    return row;
  }, TRANSACTION_OPTIONS);
  deps.logger.info('sender return changed', { requestId: request.requestId, returnId, status: updated.status, amount: updated.amount });
  return toOpsSenderReturn(updated);
}
