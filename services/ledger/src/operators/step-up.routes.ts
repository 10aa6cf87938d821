import express, { type Request, type Router } from 'express';
import { OPS_ROUTES, parseRequest, type OpsOperationId } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { isUuid } from '../shared/http-guards.js';
import { requireStepUp } from './second-factor.guard.js';

/** The larger of two amounts. */
const larger = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * Step-up in front of the three approvals that move money (docs/operations.md, Step-up): each reads what its
 * approval would move and refuses (403 `step_up_required`) above STEP_UP_ABOVE_KURUS without a fresh code. Mounted
 * after the auth guard and before the routers that approve, so the money rule stays in one place and the
 * approval use cases stay about the record. A record that does not exist passes on: its router answers 404.
 */
export function stepUpRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  const guard = (operationId: OpsOperationId, amountOf: (req: Request, id: string) => Promise<bigint | null>) => {
    const { path } = OPS_ROUTES[operationId];
    const param = (/:(\w+)/.exec(path) as RegExpExecArray)[1] as string;
    // A middleware, not a second route, so the route table's routes stay one each (test/ops-route-guards).
    router.use(path, (req, res, next) => {
      if (req.method !== 'POST' || req.path !== '/') {
        next();
        return;
      }
      jsonBody(req, res, (parseError?: unknown) => {
        if (parseError) {
          next(parseError);
          return;
        }
        const id = pathParam(req, param);
        const caller = res.locals.operator;
        (isUuid(id) && caller ? amountOf(req, id) : Promise.resolve(null))
          .then((amount) => {
            if (amount !== null && caller) requireStepUp(deps, caller, amount);
          })
          .then(() => next(), next);
      });
    });
  };

  // The operator's figure, or else what the approval credits by default (everything received), never less than asked for.
  guard('approveIntent', async (req, id) => {
    const { amount } = parseRequest('approveIntent', req.body);
    if (amount) return BigInt(amount);
    const deposit = await deps.depositReview.findDeposit(id);
    return deposit ? larger(deposit.receivedAmount ?? 0n, deposit.requestedAmount) : null;
  });
  guard('approveWithdrawal', async (_req, id) => (await deps.withdrawalReview.findWithdrawal(id))?.amount ?? null);
  guard('approveSenderReturn', async (_req, id) => (await deps.senderReturns.find(id))?.amount ?? null);
  return router;
}
