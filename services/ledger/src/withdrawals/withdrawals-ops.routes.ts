import express, { type Router } from 'express';
import { WITHDRAWAL_STATUSES, parseRequest } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import { balanceView } from '../journal/accounts.js';
import { approvalsRequired, approvalsView, withApprovalsRequired } from '../review/four-eyes.js';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { reviewFilter, statusesOf } from '../shared/ops-list.use-case.js';
import { approveWithdrawal, markWithdrawalReturned, markWithdrawalSent, rejectWithdrawal } from './review-withdrawal.use-case.js';
import { toOpsWithdrawal } from './withdrawal.views.js';
import { opsRoute } from '../shared/ops-route.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import type { WithdrawalReviewRepository } from './withdrawal-review.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type WithdrawalsOpsRoutesDeps = Parameters<typeof opsListRoute>[0] &
  Parameters<typeof withApprovalsRequired>[0] &
  Parameters<typeof approvalsView>[0] &
  Parameters<typeof approveWithdrawal>[0] & {
    journal: JournalRepository;
    withdrawalReview: WithdrawalReviewRepository;
  };

/** The withdrawal review queue, decisions and payout steps (`/ops/v1/withdrawals`); reviewers and admins alike. */
export function withdrawalOpsRoutes(deps: WithdrawalsOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(
    router,
    'opsListWithdrawals',
    opsListRoute(deps, {
      schema: 'opsListWithdrawals',
      cursorList: 'ops-withdrawals',
      fetch: async (filters, window, scope, tx) =>
        withApprovalsRequired(
          deps,
          await deps.withdrawalReview.listWithdrawals(reviewFilter(filters, statusesOf(filters, WITHDRAWAL_STATUSES)), window, scope, tx),
          (row) => row.siteId,
        ),
      toItem: (row) => toOpsWithdrawal(row, approvalsView(deps, row.status, row.approvals, row.approvalsRequired)),
    }),
  );

  opsRoute(router, 'opsGetWithdrawal', async (req, res) => {
    const row = await foundOr404(
      pathParam(req, 'withdrawalId'),
      (id) => deps.withdrawalReview.findWithdrawal(id),
      'No withdrawal with this id.',
    );
    const required = await approvalsRequired(deps, row.siteId, row.amount);
    // The reviewer decides against the site's balance, so it comes with the record.
    res.json({
      ...toOpsWithdrawal(row, approvalsView(deps, row.status, row.approvals, required)),
      siteBalance: balanceView(row.siteId, await deps.journal.balancesOf(row.siteId)),
    });
  });

  opsRoute(router, 'approveWithdrawal', jsonBody, async (req, res) => {
    parseRequest('approveWithdrawal', req.body);
    res.json(await approveWithdrawal(deps, operatorRequestOf(req, res), pathParam(req, 'withdrawalId')));
  });

  opsRoute(router, 'rejectWithdrawal', jsonBody, async (req, res) => {
    const { reason } = parseRequest('reject', req.body);
    res.json(await rejectWithdrawal(deps, operatorRequestOf(req, res), pathParam(req, 'withdrawalId'), reason));
  });

  opsRoute(router, 'markWithdrawalSent', jsonBody, async (req, res) => {
    const { bankTxId } = parseRequest('markSent', req.body);
    res.json(await markWithdrawalSent(deps, operatorRequestOf(req, res), pathParam(req, 'withdrawalId'), bankTxId));
  });

  opsRoute(router, 'markWithdrawalReturned', jsonBody, async (req, res) => {
    const { reason } = parseRequest('markReturned', req.body);
    res.json(await markWithdrawalReturned(deps, operatorRequestOf(req, res), pathParam(req, 'withdrawalId'), reason));
  });

  return router;
}
