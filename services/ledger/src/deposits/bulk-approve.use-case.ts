import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import type { OperatorRequest } from '../shared/request-context.js';
import { approveDeposit, type DepositReviewDeps } from './review-deposit.use-case.js';

/** What a bulk approval needs: a single approval's parts (the step-up rule's clock and limit among them) and a log for the unexpected. */
export interface BulkApproveDeps extends DepositReviewDeps {
  logger: Logger;
}

type Approved = Awaited<ReturnType<typeof approveDeposit>>;

/** One intent's outcome: approved with its decision, or refused with the reason a caller branches on. */
export type BulkApproveItem =
  { intentId: string; ok: true; intent: Approved } | { intentId: string; ok: false; error: { reason: string; detail: string } };

/**
 * Approves each intent in turn, each by {@link approveDeposit} in its own transaction (its own audit entry and
 * `intent.approved`). The one check a bulk approval adds to a single one, that the money arrived exactly as requested
 * (so nobody approves a short or over payment without looking at it), is the approval's own `exact` rule: decided on
 * the locked intent with the step-up rule for what it credits, so a transfer assigned at the same moment either comes
 * first and the item is refused (`not_exact_match`), or comes after and finds the deposit decided. One item's failure
 * never stops or undoes the others: a refusal (AppError) is reported with its reason, anything else is logged and
 * reported as `internal_error` for that item alone.
 */
export async function bulkApproveDeposits(
  deps: BulkApproveDeps,
  request: OperatorRequest,
  intentIds: readonly string[],
): Promise<BulkApproveItem[]> {
  const results: BulkApproveItem[] = [];
  // In order and one at a time: each approval locks its deposit and the site's balance, and the answer follows the list.
  for (const intentId of intentIds) {
    try {
      results.push({ intentId, ok: true, intent: await approveDeposit(deps, request, intentId, { exact: true }) });
    } catch (error) {
      if (error instanceof AppError) {
        results.push({ intentId, ok: false, error: { reason: error.reason ?? error.code, detail: error.detail } });
        continue;
      }
      deps.logger.error('bulk approval of a deposit failed', { requestId: request.requestId, intentId, error });
      results.push({
        intentId,
        ok: false,
        error: {
          reason: 'internal_error',
          detail: 'The approval failed unexpectedly (logged with this request id); read the deposit before trying again.',
        },
      });
    }
  }
  return results;
}
