import express, { type Router } from 'express';
import { opsOperation } from '../shared/ops-route.js';
import { reconcileAccount, reconcileAll } from './reconcile-account.use-case.js';
import type { Clock } from '../shared/clock.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type ReconciliationOpsRoutesDeps = Parameters<typeof reconcileAccount>[0] & {
  clock: Clock;
};

/** Reconciliation of the receiving accounts against their statements (`/ops/v1/reconciliation`, `.../:accountId/reconciliation`). */
export function reconciliationOpsRoutes(deps: ReconciliationOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(router, 'getReconciliation')(async ({ params }) => reconcileAccount(deps, params.accountId));

  opsOperation(
    router,
    'listReconciliations',
  )(async () => ({ generatedAt: deps.clock.now().toISOString(), data: await reconcileAll(deps) }));

  return router;
}
