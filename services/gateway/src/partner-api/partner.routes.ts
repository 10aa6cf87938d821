import express, { type Router } from 'express';
import { sandboxRoutes } from '../sandbox/sandbox.routes.js';
import { fingerprintOf, LIST_FILTERS_INVALID, parseRequest, type PartnerOperationId } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { authenticate } from '../auth/authenticate.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { eventRoutes } from '../events/events.routes.js';
import { partnerRoute } from './partner-route.js';
import { sendStored, sitePathOf } from './respond.js';
import { searchOf } from './search-params.js';
import { webhookConfigRoutes } from '../webhook-config/webhook-config.routes.js';

/** Endpoints 1 to 6 of docs/api.md (Endpoints): authenticate, rate-limit, validate, then hand over to the ledger. */
export function partnerRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  router.use(authenticate(deps));

  // `route` names the idempotency scope and the ledger's path; changing it would orphan stored keys.
  // A deposit's answer carries its page link, whose token is a capability: Redis keeps only that its key is done.
  const create = (operationId: PartnerOperationId, route: 'deposits' | 'withdrawals', parse: (body: unknown) => object) =>
    partnerRoute(router, operationId, jsonBody, async (req, res) => {
      const key = idempotencyKeyOf(req.get('idempotency-key'));
      const body = parse(req.body);
      const fingerprint = fingerprintOf(body);
      const scope = { siteId: res.locals.principal.siteId, route, key, fingerprint };
      const result = await deps.idempotency.run(
        scope,
        (answeredBefore) =>
          deps.ledger.request('POST', `/internal/v1/sites/${sitePathOf(res)}/${route}`, req.requestId, {
            idempotencyKey: key,
            fingerprint,
            request: body,
            ...(answeredBefore ? { answeredBefore } : {}),
          }),
        route === 'deposits' ? 'fingerprint' : 'answer',
      );
      sendStored(res, result);
    });
  const CREATE_INVALID = 'The request body is not valid; nothing was created.';
  create('createDeposit', 'deposits', (body) => parseRequest('createDeposit', body, CREATE_INVALID));
  create('createWithdrawal', 'withdrawals', (body) => parseRequest('createWithdrawal', body, CREATE_INVALID));

  const lookup = (operationId: PartnerOperationId, param: string, ledgerPath: string) =>
    partnerRoute(router, operationId, async (req, res) => {
      const id = encodeURIComponent(pathParam(req, param));
      sendStored(res, await deps.ledger.request('GET', `/internal/v1/sites/${sitePathOf(res)}/${ledgerPath}/${id}`, req.requestId));
    });
  lookup('getIntent', 'intentId', 'intents');
  lookup('getWithdrawal', 'withdrawalId', 'withdrawals');

  const list = (operationId: PartnerOperationId, ledgerPath: string, parse: (query: unknown) => Record<string, string | undefined>) =>
    partnerRoute(router, operationId, async (req, res) => {
      const query = searchOf(parse(req.query));
      sendStored(
        res,
        await deps.ledger.request('GET', `/internal/v1/sites/${sitePathOf(res)}/${ledgerPath}${query ? `?${query}` : ''}`, req.requestId),
      );
    });
  list('listIntents', 'intents', (query) => parseRequest('listIntents', query, LIST_FILTERS_INVALID));
  list('listWithdrawals', 'withdrawals', (query) => parseRequest('listWithdrawals', query, LIST_FILTERS_INVALID));

  partnerRoute(router, 'getBalance', async (req, res) => {
    sendStored(res, await deps.ledger.request('GET', `/internal/v1/sites/${sitePathOf(res)}/balance`, req.requestId));
  });

  router.use(webhookConfigRoutes(deps));
  router.use(eventRoutes(deps));
  router.use(sandboxRoutes(deps));

  return router;
}
