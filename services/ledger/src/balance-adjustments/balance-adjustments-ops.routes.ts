import express, { type Router } from 'express';
import { BALANCE_ADJUSTMENT_OPS, BALANCE_ADJUSTMENT_STATUSES } from '@kasa/contracts';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { normalizeReference, statusesOf } from '../shared/ops-list.use-case.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { operatorRequestOf } from '../shared/request-context.js';
import type { RecordKind } from '../review/record-kind.js';
import {
  approveBalanceAdjustment,
  proposeBalanceAdjustment,
  rejectBalanceAdjustment,
  type BalanceAdjustmentDeps,
} from './review-balance-adjustment.use-case.js';
import { toOpsBalanceAdjustment } from './balance-adjustment.views.js';
import { BalanceAdjustmentRepository } from './balance-adjustment.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type BalanceAdjustmentsOpsRoutesDeps = BalanceAdjustmentDeps & Parameters<typeof opsListRoute>[0];

/**
 * Balance adjustments (`/ops/v1/balance-adjustments`): an admin proposes one on a site, a second admin applies or
 * rejects it; any operator reads them (docs/operations.md, Balance adjustments).
 */
export function balanceAdjustmentOpsRoutes(deps: BalanceAdjustmentsOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(
    router,
    'proposeBalanceAdjustment',
  )(async ({ params, body }, req, res) =>
    proposeBalanceAdjustment(deps, operatorRequestOf(req, res), params.siteId, {
      direction: body.direction,
      amount: BigInt(body.amount),
      reason: body.reason,
    }),
  );

  opsRoute(
    router,
    'opsListBalanceAdjustments',
    opsListRoute(deps, {
      schema: 'opsListBalanceAdjustments',
      cursorList: 'ops-balance-adjustments',
      fetch: (filters, window, scope, tx) =>
        deps.balanceAdjustments.list(
          {
            statuses: statusesOf(filters, BALANCE_ADJUSTMENT_STATUSES),
            siteId: filters.siteId,
            // As a partner's support reads it out from the balance movement: case, spaces and dashes forgiven.
            referenceNo: filters.referenceNo === undefined ? undefined : normalizeReference(filters.referenceNo),
          },
          window,
          scope,
          tx,
        ),
      toItem: toOpsBalanceAdjustment,
    }),
  );

  opsOperation(
    router,
    'opsGetBalanceAdjustment',
  )(async ({ params }) =>
    toOpsBalanceAdjustment(
      await foundOr404(params.adjustmentId, (id) => deps.balanceAdjustments.find(id), 'No balance adjustment with this id.'),
    ),
  );

  opsOperation(
    router,
    'approveBalanceAdjustment',
  )(async ({ params }, req, res) => approveBalanceAdjustment(deps, operatorRequestOf(req, res), params.adjustmentId));
  opsOperation(
    router,
    'rejectBalanceAdjustment',
  )(async ({ params, body }, req, res) => rejectBalanceAdjustment(deps, operatorRequestOf(req, res), params.adjustmentId, body.reason));

  return router;
}

/** Balance adjustments as a reviewed record kind (record-kinds.ts). */
export const balanceAdjustmentKind = {
  folder: 'balance-adjustments',
  opsRoutes: balanceAdjustmentOpsRoutes,
  repositories: ({ db }) => ({
    /** Balance adjustments: proposed, applied or rejected by admins (docs/operations.md, Balance adjustments). */
    balanceAdjustments: new BalanceAdjustmentRepository(db),
  }),
  scope: {
    param: 'adjustmentId',
    notFound: 'No balance adjustment with this id.',
    siteOf: (deps, id) => deps.balanceAdjustments.siteOfRecord(id),
  },
  // `adjustmentsToApply`: proposals waiting for their second admin.
  desk: {
    declared: BALANCE_ADJUSTMENT_OPS.desk,
    head: (deps, live, db) => deps.balanceAdjustments.queueHead(BALANCE_ADJUSTMENT_OPS.desk.status, live, db),
  },
} satisfies RecordKind<BalanceAdjustmentsOpsRoutesDeps>;
