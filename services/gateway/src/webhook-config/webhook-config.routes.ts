import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { partnerRoute } from '../partner-api/partner-route.js';

/**
 * Endpoint 7 of docs/api.md, `PUT /site/webhook-config`: the partner changes its webhook URL and rotates its signing
 * secret with its own key. A PUT needs no Idempotency-Key: a retry rotates again and returns the newest
 * secret, and the one before it keeps signing through the overlap window. The answer is never cached,
 * because it carries the secret.
 */
export function webhookConfigRoutes(deps: GatewayDeps): Router {
  const router = express.Router();

  partnerRoute(router, 'putWebhookConfig', jsonBody, async (req, res) => {
    const body = parseRequest('updateWebhookConfig', req.body, 'The webhook config is not valid; nothing was changed.');
    const { siteId, apiKeyId } = res.locals.principal;
    const result = await deps.ledger.request('PUT', `/internal/v1/sites/${encodeURIComponent(siteId)}/webhook-config`, req.requestId, {
      apiKeyId,
      request: body,
    });
    res.status(result.status).set('Cache-Control', 'no-store').type('application/json').send(result.body);
  });

  return router;
}
