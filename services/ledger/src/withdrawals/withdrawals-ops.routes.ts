import express, { type Router } from 'express';
import { WITHDRAWAL_STATUSES } from '@kasa/contracts';
import { balanceView } from '../journal/accounts.js';
import { approvalsRequired, approvalsView, withApprovalsRequired } from '../review/four-eyes.js';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { reviewFilter, statusesOf } from '../shared/ops-list.use-case.js';
import { approveWithdrawal, markWithdrawalReturned, markWithdrawalSent, rejectWithdrawal } from './review-withdrawal.use-case.js';
import { toOpsWithdrawal } from './withdrawal.views.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import { WithdrawalRepository } from './withdrawal.repository.js';
import type { WithdrawalReviewRepository } from './withdrawal-review.repository.js';
import type { RecordKind } from '../review/record-kind.js';

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

  opsOperation(
    router,
    'opsGetWithdrawal',
  )(async ({ params }) => {
    const row = await foundOr404(params.withdrawalId, (id) => deps.withdrawalReview.findWithdrawal(id), 'No withdrawal with this id.');
    const required = await approvalsRequired(deps, row.siteId, row.amount);
    // The reviewer decides against the site's balance, so it comes with the record.
    return {
      ...toOpsWithdrawal(row, approvalsView(deps, row.status, row.approvals, required)),
      siteBalance: balanceView(row.siteId, await deps.journal.balancesOf(row.siteId)),
    };
  });

  // Each decision's body is parsed by the schema the route table names, and its answer typed as the table documents it.
  opsOperation(
    router,
    'approveWithdrawal',
  )(async ({ params }, req, res) => approveWithdrawal(deps, operatorRequestOf(req, res), params.withdrawalId));
  opsOperation(
    router,
    'rejectWithdrawal',
  )(async ({ params, body }, req, res) => rejectWithdrawal(deps, operatorRequestOf(req, res), params.withdrawalId, body.reason));
  opsOperation(
    router,
    'markWithdrawalSent',
  )(async ({ params, body }, req, res) => markWithdrawalSent(deps, operatorRequestOf(req, res), params.withdrawalId, body?.bankTxId));
  opsOperation(
    router,
    'markWithdrawalReturned',
  )(async ({ params, body }, req, res) => markWithdrawalReturned(deps, operatorRequestOf(req, res), params.withdrawalId, body.reason));

  return router;
}

/** Withdrawals as a reviewed record kind (record-kinds.ts). */
export const withdrawalKind = {
  folder: 'withdrawals',
  opsRoutes: withdrawalOpsRoutes,
  // The partner API's withdrawals; their review repository is built in ledger-deps.ts, as screening and the sandbox
  // read it too.
  repositories: ({ db, pool, siteScoped }) => ({ withdrawals: new WithdrawalRepository(db, pool, siteScoped) }),
  scope: { param: 'withdrawalId', notFound: 'No withdrawal with this id.', siteOf: (deps, id) => deps.withdrawalReview.siteOfRecord(id) },
} satisfies RecordKind<WithdrawalsOpsRoutesDeps>;
