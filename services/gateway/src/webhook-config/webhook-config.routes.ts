import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { partnerRoute } from '../partner-api/partner-route.js';
import { sendStored, siteOf } from '../partner-api/respond.js';

/**
 * Endpoint 7 of docs/api.md, `PUT /site/webhook-config`: the partner changes its webhook URL and rotates its signing
 * secret with its own key. A PUT needs no Idempotency-Key: a retry rotates again and returns the newest
 * secret, and the one before it keeps signing through the overlap window. The answer is never cached,
 * because it carries the secret. `POST /test/webhooks` sends a signed sample to the configured URL now.
 */
export function webhookConfigRoutes(deps: GatewayDeps): Router {
  const router = express.Router();

  // The read carries no secret; it is the URL and when it last changed.
  partnerRoute(router, 'getWebhookConfig', async (req, res) => {
    sendStored(res, await deps.ledger.call('getWebhookConfig', siteOf(res), req.requestId));
  });

  partnerRoute(router, 'putWebhookConfig', jsonBody, async (req, res) => {
    const body = parseRequest('updateWebhookConfig', req.body, 'The webhook config is not valid; nothing was changed.');
    const { siteId, apiKeyId } = res.locals.principal;
    const result = await deps.ledger.call('putWebhookConfig', { siteId }, req.requestId, { body: { apiKeyId, request: body } });
    res.status(result.status).set('Cache-Control', 'no-store').type('application/json').send(result.body);
  });

  // A test webhook changes nothing, so it takes no Idempotency-Key (one sent is ignored): a repeat sends another
  // signed sample, which is what a partner debugging its receiver wants. It counts against the key's rate limit.
  partnerRoute(router, 'testWebhook', jsonBody, async (req, res) => {
    const body = parseRequest('testWebhook', req.body, 'The test webhook request is not valid; nothing was sent.');
    sendStored(res, await deps.ledger.call('testWebhook', siteOf(res), req.requestId, { body }));
  });

  return router;
}
