import express, { type Router } from 'express';
import {
  fingerprintOf,
  parseRequest,
  PARTNER_ROUTES,
  type InternalOperationId,
  type InternalParams,
  type PartnerOperationId,
  type RequestSchemaName,
} from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { partnerRoute } from '../partner-api/partner-route.js';
import { sendStored } from '../partner-api/respond.js';

// The schema differs per route; each body is checked, then passed on as it came.
const parseAny = parseRequest as (name: RequestSchemaName, body: unknown, message: string) => object;

/** Each simulator operation and the request schema of its body (docs/sandbox.md). */
const SIMULATOR: ReadonlyArray<[PartnerOperationId & InternalOperationId, RequestSchemaName]> = [
  ['simulateTransfer', 'simulateTransfer'],
  ['simulateDepositApproval', 'simulateApproval'],
  ['simulateDepositRejection', 'simulateRejection'],
  ['simulateDepositExpiry', 'simulateEmpty'],
  ['simulateWithdrawalApproval', 'simulateEmpty'],
  ['simulateWithdrawalRejection', 'simulateRejection'],
  ['simulateWithdrawalSent', 'simulateEmpty'],
  ['simulateWithdrawalReturn', 'simulateReturn'],
];

/**
 * The sandbox's simulator (`/test/deposits/...`, `/test/withdrawals/...`): test keys only, a live key gets 404 as
 * for a route that does not exist for it. Each step is a POST with an Idempotency-Key like every write, answered
 * by the ledger, which runs it through the code live money takes. The ledger's path is the partner's, under the site.
 */
export function sandboxRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  for (const [operationId, schema] of SIMULATOR) {
    partnerRoute(router, operationId, jsonBody, async (req, res) => {
      const { siteId, apiKeyId, livemode } = res.locals.principal;
      if (livemode !== false) throw new AppError('not_found', 'The simulator answers test keys (sk_test_) only; this key is live.');
      const key = idempotencyKeyOf(req.get('idempotency-key'));
      const body = parseAny(schema, req.body ?? {}, 'The simulation request is not valid; nothing was changed.');
      // The record is part of the request: one key reused for another record is a different request.
      const path = PARTNER_ROUTES[operationId].path.replace(/:(\w+)/g, (_match, name: string) =>
        encodeURIComponent(String(req.params[name])),
      );
      const fingerprint = fingerprintOf({ path, body });
      const result = await deps.idempotency.run({ siteId, route: `sandbox.${operationId}`, key, fingerprint }, () =>
        // The ledger's path is the partner's under the site (INTERNAL_ROUTES' sandbox steps): the same parameters fill it.
        deps.ledger.call(operationId, { siteId, ...req.params } as InternalParams<typeof operationId>, req.requestId, {
          body: { apiKeyId, request: body },
        }),
      );
      sendStored(res, result);
    });
  }
  return router;
}
