import express, { type Response, type Router } from 'express';
import { fingerprintOf, validateRequest, type RequestSchemaName } from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { authenticate } from '../middleware/authenticate.js';
import { idempotencyKeyOf } from '../middleware/idempotency.js';
import type { StoredResponse } from '../middleware/idempotency.js';
import { eventRoutes } from './events.routes.js';
import { webhookConfigRoutes } from './webhook-config.routes.js';

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

function send(res: Response, result: StoredResponse): void {
  res.status(result.status);
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.type('application/json').send(result.body);
}

function assertValid(schema: RequestSchemaName, data: unknown, detail: string): void {
  const errors = validateRequest(schema, data);
  if (errors.length > 0) throw AppError.validation(errors, detail);
}

/** SPEC endpoints 1 to 6: authenticate, rate-limit, validate, then hand over to the ledger. */
export function partnerRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  router.use(authenticate(deps));
  const site = (res: Response) => encodeURIComponent(res.locals.principal.siteId);

  const create = (route: 'deposits' | 'withdrawals', schema: RequestSchemaName) =>
    router.post(`/${route}`, jsonBody, async (req, res) => {
      const key = idempotencyKeyOf(req.get('idempotency-key'));
      assertValid(schema, req.body, 'The request body is not valid; nothing was created.');
      const fingerprint = fingerprintOf(req.body);
      const scope = { siteId: res.locals.principal.siteId, route, key, fingerprint };
      const result = await deps.idempotency.run(scope, () =>
        deps.ledger.request('POST', `/internal/v1/sites/${site(res)}/${route}`, req.requestId, {
          idempotencyKey: key,
          fingerprint,
          request: req.body,
        }),
      );
      send(res, result);
    });
  create('deposits', 'createDeposit');
  create('withdrawals', 'createWithdrawal');

  const lookup = (path: string, param: string, ledgerPath: string) =>
    router.get(path, async (req, res) => {
      const id = encodeURIComponent(String(req.params[param]));
      send(res, await deps.ledger.request('GET', `/internal/v1/sites/${site(res)}/${ledgerPath}/${id}`, req.requestId));
    });
  lookup('/intents/:intentId', 'intentId', 'intents');
  lookup('/withdrawals/:withdrawalId', 'withdrawalId', 'withdrawals');

  const list = (path: string, schema: RequestSchemaName) =>
    router.get(path, async (req, res) => {
      assertValid(schema, req.query, 'The list filters are not valid.');
      const query = new URLSearchParams(req.query as Record<string, string>).toString();
      send(res, await deps.ledger.request('GET', `/internal/v1/sites/${site(res)}${path}${query ? `?${query}` : ''}`, req.requestId));
    });
  list('/intents', 'listIntents');
  list('/withdrawals', 'listWithdrawals');

  router.use(webhookConfigRoutes(deps));
  router.use(eventRoutes(deps));

  return router;
}
