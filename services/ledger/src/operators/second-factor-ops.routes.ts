import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import { isUuid } from '../shared/http-guards.js';
import { opsRoute } from '../shared/ops-route.js';
import { principalOf } from '../shared/operator-principal.js';
import { confirmSecondFactor, disableSecondFactor, enrollSecondFactor, verifySecondFactor } from './second-factor.use-case.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SecondFactorOpsRoutesDeps = Parameters<typeof enrollSecondFactor>[0];

/** An operator's second factor (TOTP): enroll, confirm, step up, turn off (docs/operations.md). */
export function secondFactorOpsRoutes(deps: SecondFactorOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'enrollSecondFactor', async (_req, res) => {
    res.status(201).json(await enrollSecondFactor(deps, principalOf(res.locals)));
  });

  opsRoute(router, 'confirmSecondFactor', jsonBody, async (req, res) => {
    const { code } = parseRequest('secondFactorCode', req.body);
    res.json(await confirmSecondFactor(deps, principalOf(res.locals), code));
  });

  opsRoute(router, 'verifySecondFactor', jsonBody, async (req, res) => {
    const { code } = parseRequest('secondFactorCode', req.body);
    res.json(await verifySecondFactor(deps, principalOf(res.locals), code));
  });

  opsRoute(router, 'disableSecondFactor', jsonBody, async (req, res) => {
    const { code } = parseRequest('disableSecondFactor', req.body);
    const operatorId = pathParam(req, 'operatorId');
    if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
    res.json(await disableSecondFactor(deps, principalOf(res.locals), operatorId, code));
  });

  return router;
}
