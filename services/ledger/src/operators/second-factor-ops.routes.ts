import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import { isUuid } from '../shared/http-guards.js';
import { opsOperation } from '../shared/ops-route.js';
import { principalOf } from '../shared/operator-principal.js';
import { confirmSecondFactor, disableSecondFactor, enrollSecondFactor, verifySecondFactor } from './second-factor.use-case.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SecondFactorOpsRoutesDeps = Parameters<typeof enrollSecondFactor>[0];

/** An operator's second factor (TOTP): enroll, confirm, step up, turn off (docs/operations.md). */
export function secondFactorOpsRoutes(deps: SecondFactorOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(router, 'enrollSecondFactor')(async (_input, _req, res) => enrollSecondFactor(deps, principalOf(res.locals)));

  opsOperation(
    router,
    'confirmSecondFactor',
  )(async ({ body: { code } }, _req, res) => confirmSecondFactor(deps, principalOf(res.locals), code));

  opsOperation(
    router,
    'verifySecondFactor',
  )(async ({ body: { code } }, _req, res) => verifySecondFactor(deps, principalOf(res.locals), code));

  opsOperation(
    router,
    'disableSecondFactor',
  )(async ({ params: { operatorId }, body }, _req, res) => {
    if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
    return disableSecondFactor(deps, principalOf(res.locals), operatorId, body?.code);
  });

  return router;
}
