import type { Prisma } from '@kasa/db';
import type { StatementLine } from '@kasa/statements';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { STRAIGHT_THROUGH_PRINCIPAL } from '../operators/operator-principal.js';
import { approveDeposit, type DepositReviewDeps } from '../deposits/review-deposit.use-case.js';
import type { Actor } from '../shared/audit.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import type { TransitionDeps } from '../shared/transition.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { BankStatementRepository } from './bank-statement.repository.js';
import type { NewBankTransfer } from './bank-transfer.repository.js';
import { recordArrival, type RecordArrivalDeps, type RecordedArrival } from './record-arrival.js';
import { straightThrough } from './straight-through.js';

/** What recording a receiving account's lines needs: recording and matching, the debits, and approving by a site's rule. */
export interface RecordLinesDeps extends TransitionDeps, RecordArrivalDeps, DepositReviewDeps {
  statements: BankStatementRepository;
  sites: SiteRepository;
}

/** What recording a batch of lines did. `matched + suggested + unmatched` are the new transfers. */
export interface LineCounts {
  created: number;
  duplicates: number;
  matched: number;
  suggested: number;
  unmatched: number;
  autoApproved: number;
}

/** The counts alone, for the one log line a batch writes (the answer carries more). */
export function countsOf({ created, duplicates, matched, suggested, unmatched, autoApproved }: LineCounts): LineCounts {
  return { created, duplicates, matched, suggested, unmatched, autoApproved };
}

/** The running counts of a batch, and the arrivals that paid a deposit (for straight-through approval once committed). */
export interface LineTally {
  counts: LineCounts;
  paid: RecordedArrival[];
}

export const newTally = (): LineTally => ({
  counts: { created: 0, duplicates: 0, matched: 0, suggested: 0, unmatched: 0, autoApproved: 0 },
  paid: [],
});

/** Where a batch of lines came from: a receiving account, and the statement they are in (null: a bank connector's feed). */
export interface LineSource {
  receivingAccountId: string;
  statementId: string | null;
}

/**
 * Records the lines a bank delivered for a receiving account (a statement's, or a connector's feed) inside the
 * caller's transaction: a credit as a transfer exactly as an operator's ({@link recordArrival}), a debit kept for the
 * payouts; a line whose bank reference the account already has is a duplicate and changes nothing.
 */
export async function recordLines(
  tx: Prisma.TransactionClient,
  deps: RecordLinesDeps,
  actor: Actor,
  source: LineSource,
  lines: readonly StatementLine[],
  tally: LineTally,
): Promise<void> {
  const { counts } = tally;
  for (const line of lines) {
    if (line.direction === 'debit') {
      const created = await deps.statements.insertDebitUnlessKnown(tx, debitOf(line, source));
      counts[created ? 'created' : 'duplicates'] += 1;
      continue;
    }
    const recorded = await recordArrival(tx, deps, actor, transferOf(line, source));
    if (!recorded) {
      counts.duplicates += 1;
      continue;
    }
    counts.created += 1;
    counts[recorded.deposit ? 'matched' : recorded.suggestions.length > 0 ? 'suggested' : 'unmatched'] += 1;
    if (recorded.deposit) tally.paid.push(recorded);
  }
}

/**
 * Approves, after the lines committed, each deposit its site's rule lets the service approve (straight-through.ts),
 * through the operators' own transition: the same journal posting, `intent.approved` event and webhook, audited with
 * actor SYSTEM and the rule in the metadata. A deposit an operator decided meanwhile is left as it is. Returns how
 * many were approved.
 */
export async function approveStraightThrough(deps: RecordLinesDeps, request: OperatorRequest, paid: RecordedArrival[]): Promise<number> {
  let approved = 0;
  // A deposit two lines of the file paid is split money: an operator's.
  const times = new Map<string, number>();
  for (const { deposit } of paid) if (deposit) times.set(deposit.id, (times.get(deposit.id) ?? 0) + 1);
  for (const { transfer, deposit, before, reasons } of paid) {
    if (!deposit || !before || times.get(deposit.id) !== 1) continue;
    const site = await deps.sites.findById(deposit.siteId);
    if (!site) continue;
    const decision = straightThrough(site, { amount: transfer.amount, reasons, before, after: deposit });
    if (!decision.approve) {
      if (site.autoApproveEnabled) {
        deps.logger.info('straight-through approval not applied', {
          requestId: request.requestId,
          intentId: deposit.id,
          refusal: decision.refusal,
        });
      }
      continue;
    }
    const rule = {
      name: 'straight_through',
      maxAmount: site.autoApproveMaxAmount.toString(),
      requireSenderMatch: site.autoApproveRequireSenderMatch,
      bankTransferId: transfer.id,
      reasons,
    };
    try {
      // The credit is this transfer's amount, never more: money recorded for the deposit since is an operator's to weigh.
      await approveDeposit(deps, { requestId: request.requestId, caller: STRAIGHT_THROUGH_PRINCIPAL }, deposit.id, {
        amount: transfer.amount,
        rule,
      });
      approved += 1;
    } catch (error) {
      // The lines are committed whatever happens here: a deposit not approved waits for an operator, as without the rule.
      // An AppError is an operator having decided it meanwhile (409): their decision stands.
      const reason = error instanceof AppError ? error.detail : error instanceof Error ? error.message : String(error);
      deps.logger.info('straight-through approval skipped', { requestId: request.requestId, intentId: deposit.id, reason });
    }
  }
  return approved;
}

function transferOf(line: StatementLine, { receivingAccountId, statementId }: LineSource): NewBankTransfer {
  return {
    bankTxId: line.bankTxId,
    amount: line.amount,
    currency: line.currency,
    senderName: (line.counterpartyName ?? '').slice(0, 140),
    senderIban: line.counterpartyIban ? normalizeIban(line.counterpartyIban) : '',
    description: line.description.slice(0, 500),
    receivedAt: line.bookedAt,
    receivingAccountId,
    statementId,
  };
}

function debitOf(line: StatementLine, { receivingAccountId, statementId }: LineSource) {
  return {
    receivingAccountId,
    statementId,
    bankTxId: line.bankTxId,
    amount: line.amount,
    currency: line.currency,
    counterpartyName: line.counterpartyName?.slice(0, 140) ?? null,
    counterpartyIban: line.counterpartyIban ? normalizeIban(line.counterpartyIban) : null,
    description: line.description.slice(0, 500),
    endToEndId: line.endToEndId,
    returnReason: line.returnReason,
    reversal: line.reversal,
    bookedAt: line.bookedAt,
  };
}
