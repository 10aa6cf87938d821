import type { Prisma } from '@kasa/db';
import type { ReturnReasonCode } from '@kasa/contracts';
import type { FollowUpSelection } from './follow-up.repository.js';

/**
 * Follow-ups as the transactions that promise them see them: each kind's payload, and the port through which a batch of
 * lines has its own carried out at once (run-follow-ups.use-case.ts does it; the composition root, ledger-deps.ts,
 * wires it in, so bank-transfers/ does not import the use case).
 */

/** What a run finished: deposits approved straight through, payouts marked sent and returned, work an operator had done first. */
export interface FollowUpCounts {
  autoApproved: number;
  payoutsSent: number;
  payoutsReturned: number;
  skipped: number;
  /** Follow-ups whose try failed as a whole (a lost connection, a deadlock): left pending, tried again later. */
  deferred: number;
}

/** The payload of each kind, as the transaction that promised it wrote it (record-lines.ts). */
export interface ApprovalPayload {
  siteId: string;
  amount: string;
  rule: Prisma.InputJsonObject;
}
export interface PayoutSentPayload {
  batchId: string;
  bankTxId: string;
}
export interface PayoutReturnedPayload extends PayoutSentPayload {
  bankTransferId: string;
  code: ReturnReasonCode | null;
  reason: string;
}

/** Carries out the pending follow-ups a selection names, as `runFollowUps` does: a batch's own, at once. */
export interface FollowUpRunner {
  run(requestId: string | null, selection: FollowUpSelection): Promise<FollowUpCounts>;
}
