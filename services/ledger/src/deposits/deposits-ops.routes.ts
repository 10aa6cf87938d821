import express, { type Router } from 'express';
import { DEPOSIT_STATUSES, type OpsResponse } from '@kasa/contracts';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { reviewFilter, statusesOf } from '../shared/ops-list.use-case.js';
import { toOpsDeposit } from './deposit.views.js';
import { approveDeposit, rejectDeposit } from './review-deposit.use-case.js';
import { bulkApproveDeposits } from './bulk-approve.use-case.js';
import { waitForRest } from './wait-for-rest.use-case.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { inScope, scopeOf } from '../shared/site-scope.js';
import { SiteScopeRepository } from '../operators/site-scope.repository.js';
import type { PrismaClient } from '@kasa/db';
import { DepositRepository } from './deposit.repository.js';
import type { DepositReviewRepository } from './deposit-review.repository.js';
import type { RecordKind } from '../review/record-kind.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type DepositsOpsRoutesDeps = Parameters<typeof opsListRoute>[0] &
  Parameters<typeof approveDeposit>[0] &
  Parameters<typeof bulkApproveDeposits>[0] &
  Parameters<typeof waitForRest>[0] & {
    depositTransfers: DepositTransfers;
    db: PrismaClient;
    depositReview: DepositReviewRepository;
  };

/**
 * A deposit's bank transfers as the ops API shows them: bank-transfers/ reads and renders them, wired in by the
 * composition root (ledger-deps.ts), so deposits/ does not import the feature that matches money onto it.
 */
export interface DepositTransfers {
  ofDeposit(intentId: string): Promise<OpsResponse<'opsGetIntent'>['bankTransfers']>;
}

/** The deposit review queue and decisions (`/ops/v1/intents`); reviewers and admins alike. */
export function depositOpsRoutes(deps: DepositsOpsRoutesDeps): Router {
  const router = express.Router();
  const scopes = new SiteScopeRepository(deps.db);

  opsRoute(
    router,
    'opsListIntents',
    opsListRoute(deps, {
      schema: 'opsListIntents',
      cursorList: 'ops-intents',
      fetch: async (filters, window, scope, tx) =>
        deps.depositReview.withSenderNames(
          await deps.depositReview.listDeposits(
            {
              ...reviewFilter(filters, statusesOf(filters, DEPOSIT_STATUSES)),
              ...(filters.waiting ? { waiting: filters.waiting === 'true' } : {}),
            },
            window,
            scope,
            tx,
          ),
          tx,
        ),
      toItem: toOpsDeposit,
    }),
  );

  opsOperation(
    router,
    'opsGetIntent',
  )(async ({ params: { intentId } }) => {
    const row = await foundOr404(intentId, (id) => deps.depositReview.findDeposit(id), 'No deposit intent with this id.');
    const transfers = await deps.depositTransfers.ofDeposit(intentId);
    return { ...toOpsDeposit({ ...row, senderNames: transfers.map((t) => t.senderName) }), bankTransfers: transfers };
  });

  opsOperation(
    router,
    'approveIntent',
  )(async ({ params, body }, req, res) =>
    approveDeposit(deps, operatorRequestOf(req, res), params.intentId, {
      ...(body?.amount ? { amount: BigInt(body.amount) } : {}),
      ...(body?.remainder ? { remainder: body.remainder } : {}),
    }),
  );

  opsOperation(
    router,
    'bulkApproveIntents',
  )(async ({ body: { intentIds } }, req, res) => {
    const request = operatorRequestOf(req, res);
    // A scoped operator's ids of other sites are answered as missing ones, before anything about them is read.
    const sites = scopeOf(request.caller) === null ? null : await scopes.depositSites(intentIds);
    const visible = (id: string) => sites === null || inScope(request.caller, sites.get(id) ?? null);
    // One result per id (the schema makes the ids different), in the order asked.
    const approved = new Map((await bulkApproveDeposits(deps, request, intentIds.filter(visible))).map((item) => [item.intentId, item]));
    const results = intentIds.map(
      (intentId) =>
        approved.get(intentId) ?? {
          intentId,
          ok: false as const,
          error: { reason: 'not_found', detail: 'No deposit intent with this id.' },
        },
    );
    return { results };
  });

  opsOperation(router, 'waitForRest')(async ({ params }, req, res) => waitForRest(deps, operatorRequestOf(req, res), params.intentId));

  opsOperation(
    router,
    'rejectIntent',
  )(async ({ params, body: { reason, userReason } }, req, res) =>
    rejectDeposit(deps, operatorRequestOf(req, res), params.intentId, { reason, userReason: userReason ?? null }),
  );

  return router;
}

/** Deposit intents as a reviewed record kind (record-kinds.ts). */
export const depositKind = {
  folder: 'deposits',
  opsRoutes: depositOpsRoutes,
  // The partner API's intents; their review repository is built in ledger-deps.ts, as bank transfers, returns,
  // screening and the sandbox read it too.
  repositories: ({ db, pool, siteScoped }) => ({ deposits: new DepositRepository(db, pool, siteScoped) }),
  scope: { param: 'intentId', notFound: 'No deposit intent with this id.', siteOf: (deps, id) => deps.depositReview.siteOfRecord(id) },
} satisfies RecordKind<DepositsOpsRoutesDeps>;
