import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { getRiskFlag, listRiskFlags, reviewRiskFlag, riskReport } from './risk-flags.use-case.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type RiskOpsRoutesDeps = Parameters<typeof listRiskFlags>[0];

const REVIEW_BODY_BYTES = 16 * 1024;

/**
 * Risk flags (`/ops/v1/risk-flags`): the review queue, a flag, its review and the report for the authority. Admins
 * only, house-wide (operators/site-scope.guard.ts). Nothing here is reachable with a partner's key.
 */
export function riskOpsRoutes(deps: RiskOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(router, 'listRiskFlags')(async (_input, req) => listRiskFlags(deps, parseRequest('listRiskFlags', req.query)));

  // Before `/:flagId`, which would take `report` for an id.
  opsRoute(router, 'riskReport', async (req, res) => {
    const report = await riskReport(deps, operatorRequestOf(req, res), parseRequest('riskReport', req.query));
    res.type('text/csv; charset=utf-8').attachment(report.filename).send(report.body);
  });

  opsOperation(router, 'getRiskFlag')(async ({ params }) => getRiskFlag(deps, params.flagId));

  opsOperation(router, 'reviewRiskFlag', { maxBodyBytes: REVIEW_BODY_BYTES })(async ({ params, body }, req, res) =>
    reviewRiskFlag(deps, operatorRequestOf(req, res), params.flagId, body),
  );

  return router;
}
