import type { PayoutBatch, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import type { ReceivingAccountRepository } from '../sites/receiving-account.repository.js';
import type { PayoutBatchRepository, PayoutBatchWithItems } from './payout-batch.repository.js';
import { pain001, payoutCsv } from './payout-file.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';

export interface PayoutBatchDeps {
  db: PrismaClient;
  logger: Logger;
  accounts: ReceivingAccountRepository;
  payoutBatches: PayoutBatchRepository;
  screenings: Pick<ScreeningRepository, 'heldAmong'>;
}

export interface CreatedPayoutBatch {
  batchId: string;
  count: number;
  total: string;
}

/**
 * The account a batch pays from: the one asked for, or else the oldest active receiving account (the first the
 * service was given, which is where its money is kept). 404 when the asked one does not exist; 409 without any.
 */
async function payingAccount(deps: PayoutBatchDeps, accountId: string | undefined) {
  if (accountId !== undefined) {
    const account = isUuid(accountId) ? await deps.accounts.findById(accountId) : null;
    if (!account) throw new AppError('not_found', 'No receiving account with this id.');
    return account;
  }
  const account = (await deps.accounts.list()).find((candidate) => candidate.active);
  if (!account) throw AppError.conflict('nothing_to_batch', 'No active receiving account to pay from; add one first. Nothing was batched.');
  return account;
}

/**
 * Gathers approved payouts into one batch for the bank: the withdrawals named (or every APPROVED withdrawal and every
 * APPROVED return to a sender no batch holds, of live money only), paid from one account. A sandbox's withdrawal
 * named is refused, 409 `sandbox_payout`: simulated money never leaves through the house's real account. Their status does not change (partners see
 * APPROVED until the bank's statement shows the money left). In one transaction with its `PAYOUT_BATCH.CREATED`
 * audit entry; a payout another batch took, also at the same moment, is skipped. 409 `nothing_to_batch` when none is
 * left, and for named withdrawals when any of them is not APPROVED or is batched already (nothing is batched then).
 */
export async function createPayoutBatch(
  deps: PayoutBatchDeps,
  request: OperatorRequest,
  input: { withdrawalIds?: string[]; accountId?: string },
): Promise<CreatedPayoutBatch> {
  const ids = input.withdrawalIds ? [...new Set(input.withdrawalIds)] : null;
  if (ids?.some((id) => !isUuid(id))) throw AppError.validation([{ field: 'withdrawalIds', message: 'must be withdrawal ids (UUIDs)' }]);
  const account = await payingAccount(deps, input.accountId);
  const actor = actorOf(request.caller);
  const batch = await inTransaction(deps, async (tx) => {
    const sandbox = ids ? await deps.payoutBatches.sandboxWithdrawals(tx, ids) : [];
    if (sandbox.length > 0) {
      throw AppError.conflict(
        'sandbox_payout',
        `${sandbox.length} of the withdrawals named belong to a sandbox (${sandbox.join(', ')}): test money never leaves through the house's real account; nothing was batched.`,
      );
    }
    const created = await deps.payoutBatches.createBatch(tx, { receivingAccountId: account.id, createdBy: actor.id });
    let items = await deps.payoutBatches.insertItems(tx, created.id, ids);
    // The insert's own check ran on its snapshot: a hold committed while it waited for a withdrawal's lock is read
    // now, with the withdrawals locked (docs/compliance.md, Sanctions and asset-freeze screening).
    const held = await deps.screenings.heldAmong(tx, ids ?? items.flatMap((item) => (item.withdrawalId ? [item.withdrawalId] : [])));
    if (held.size > 0) {
      if (ids) {
        throw AppError.conflict(
          'compliance_hold',
          `${held.size} of the withdrawals named are on compliance hold (${[...held].join(', ')}); nothing was batched.`,
        );
      }
      await deps.payoutBatches.removeWithdrawals(tx, created.id, [...held]);
      items = items.filter((item) => !item.withdrawalId || !held.has(item.withdrawalId));
    }
    if (items.length === 0) throw AppError.conflict('nothing_to_batch', 'No approved payout is left to batch; nothing was batched.');
    if (ids && items.length !== ids.length) {
      const batched = new Set(items.map((item) => item.withdrawalId));
      const left = ids.filter((id) => !batched.has(id));
      throw AppError.conflict(
        'nothing_to_batch',
        `${left.length} of the withdrawals named are not APPROVED or are in a batch already (${left.join(', ')}); nothing was batched.`,
      );
    }
    const total = items.reduce((sum, item) => sum + item.amount, 0n);
    const updated = await deps.payoutBatches.setTotals(tx, created.id, items.length, total);
    await writeAudit(tx, {
      actor,
      action: 'PAYOUT_BATCH.CREATED',
      entityType: 'payout_batch',
      entityId: created.id,
      metadata: {
        receivingAccountId: account.id,
        count: items.length,
        total: total.toString(),
        withdrawalIds: items.flatMap((item) => (item.withdrawalId ? [item.withdrawalId] : [])),
        senderReturnIds: items.flatMap((item) => (item.senderReturnId ? [item.senderReturnId] : [])),
      },
    });
    return updated;
  });
  deps.logger.info('payout batch created', {
    requestId: request.requestId,
    batchId: batch.id,
    count: batch.count,
    total: batch.total.toString(),
    receivingAccountId: account.id,
    operatorId: request.caller.operatorId,
  });
  return { batchId: batch.id, count: batch.count, total: batch.total.toString() };
}

/**
 * A batch as the ops API shows it (the list's items have no `items`), with its creator's e-mail from `emails`
 * (operator id -> e-mail; null for the bootstrap token or an operator no longer known).
 */
export function toOpsPayoutBatch(batch: PayoutBatch, emails: ReadonlyMap<string, string>) {
  return {
    batchId: batch.id,
    receivingAccountId: batch.receivingAccountId,
    count: batch.count,
    total: batch.total.toString(),
    currency: batch.currency,
    createdBy: batch.createdBy,
    createdByEmail: emails.get(batch.createdBy) ?? null,
    createdAt: batch.createdAt.toISOString(),
  };
}

export function toOpsPayoutBatchDetail(batch: PayoutBatchWithItems, emails: ReadonlyMap<string, string>) {
  return {
    ...toOpsPayoutBatch(batch, emails),
    items: batch.items.map((item) => ({
      itemId: item.id,
      kind: item.withdrawalId ? ('withdrawal' as const) : ('sender_return' as const),
      withdrawalId: item.withdrawalId,
      senderReturnId: item.senderReturnId,
      reference: item.reference,
      amount: item.amount.toString(),
      currency: item.currency,
      creditorIban: item.creditorIban,
      creditorName: item.creditorName,
    })),
  };
}

/** The batch's file for the bank: pain.001.001.03 XML, or CSV. 404 for an unknown batch. */
export async function payoutBatchFile(
  deps: PayoutBatchDeps,
  batchId: string,
  format: 'pain.001' | 'csv',
  now: Date,
): Promise<{ contentType: string; filename: string; body: string }> {
  const batch = isUuid(batchId) ? await deps.payoutBatches.find(batchId) : null;
  if (!batch) throw new AppError('not_found', 'No payout batch with this id.');
  const debtor = await deps.accounts.findById(batch.receivingAccountId);
  // The foreign key keeps the account; the check keeps the type honest.
  if (!debtor) throw new Error('a payout batch without its paying account');
  const input = { batch, debtor, now };
  return format === 'csv'
    ? { contentType: 'text/csv; charset=utf-8', filename: `payouts-${batch.id}.csv`, body: payoutCsv(input) }
    : { contentType: 'application/xml; charset=utf-8', filename: `payouts-${batch.id}.xml`, body: pain001(input) };
}
