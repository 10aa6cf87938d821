import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import { opsRoute } from '../shared/ops-route.js';
import { reconcileAccount, reconcileAll } from './reconcile-account.use-case.js';
import type { Clock } from '../shared/clock.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type ReconciliationOpsRoutesDeps = Parameters<typeof reconcileAccount>[0] & {
  clock: Clock;
};

/** Reconciliation of the receiving accounts against their statements (`/ops/v1/reconciliation`, `.../:accountId/reconciliation`). */
export function reconciliationOpsRoutes(deps: ReconciliationOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'getReconciliation', async (req, res) => {
    res.json(await reconcileAccount(deps, pathParam(req, 'accountId')));
  });

  opsRoute(router, 'listReconciliations', async (_req, res) => {
    res.json({ generatedAt: deps.clock.now().toISOString(), data: await reconcileAll(deps) });
  });

  return router;
}
