import express, { type Router } from 'express';
import { fingerprintOf, LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { authenticate } from '../auth/authenticate.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { eventRoutes } from '../events/events.routes.js';
import { sendStored, sitePathOf } from './respond.js';
import { searchOf } from './search-params.js';
import { webhookConfigRoutes } from '../webhook-config/webhook-config.routes.js';

/** Every partner route, as [method, path]: the OpenAPI document is checked against this list. */
export const PARTNER_ROUTES = [
  ['post', '/api/v1/external/deposits'],
  ['post', '/api/v1/external/withdrawals'],
  ['get', '/api/v1/external/intents/{intentId}'],
  ['get', '/api/v1/external/withdrawals/{withdrawalId}'],
  ['get', '/api/v1/external/intents'],
  ['get', '/api/v1/external/withdrawals'],
  ['put', '/api/v1/external/site/webhook-config'],
  ['get', '/api/v1/external/events'],
  ['get', '/api/v1/external/events/{eventId}'],
  ['post', '/api/v1/external/events/{eventId}/replay'],
] as const;

/** Endpoints 1 to 6 of docs/api.md (Endpoints): authenticate, rate-limit, validate, then hand over to the ledger. */
export function partnerRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  router.use(authenticate(deps));

  const create = (route: 'deposits' | 'withdrawals', parse: (body: unknown) => object) =>
    router.post(`/${route}`, jsonBody, async (req, res) => {
      const key = idempotencyKeyOf(req.get('idempotency-key'));
      const body = parse(req.body);
      const fingerprint = fingerprintOf(body);
      const scope = { siteId: res.locals.principal.siteId, route, key, fingerprint };
      const result = await deps.idempotency.run(scope, () =>
        deps.ledger.request('POST', `/internal/v1/sites/${sitePathOf(res)}/${route}`, req.requestId, {
          idempotencyKey: key,
          fingerprint,
          request: body,
        }),
      );
      sendStored(res, result);
    });
  const CREATE_INVALID = 'The request body is not valid; nothing was created.';
  create('deposits', (body) => parseRequest('createDeposit', body, CREATE_INVALID));
  create('withdrawals', (body) => parseRequest('createWithdrawal', body, CREATE_INVALID));

  const lookup = (path: string, param: string, ledgerPath: string) =>
    router.get(path, async (req, res) => {
      const id = encodeURIComponent(pathParam(req, param));
      sendStored(res, await deps.ledger.request('GET', `/internal/v1/sites/${sitePathOf(res)}/${ledgerPath}/${id}`, req.requestId));
    });
  lookup('/intents/:intentId', 'intentId', 'intents');
  lookup('/withdrawals/:withdrawalId', 'withdrawalId', 'withdrawals');

  const list = (path: string, parse: (query: unknown) => Record<string, string | undefined>) =>
    router.get(path, async (req, res) => {
      const query = searchOf(parse(req.query));
      sendStored(
        res,
        await deps.ledger.request('GET', `/internal/v1/sites/${sitePathOf(res)}${path}${query ? `?${query}` : ''}`, req.requestId),
      );
    });
  list('/intents', (query) => parseRequest('listIntents', query, LIST_FILTERS_INVALID));
  list('/withdrawals', (query) => parseRequest('listWithdrawals', query, LIST_FILTERS_INVALID));

  router.use(webhookConfigRoutes(deps));
  router.use(eventRoutes(deps));

  return router;
}
