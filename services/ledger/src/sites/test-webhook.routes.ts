import express, { type RequestHandler, type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import { isUuid } from '../shared/http-guards.js';
import { internalRouter } from '../shared/internal-route.js';
import { opsOperation } from '../shared/ops-route.js';
import { sendTestWebhook } from './test-webhook.use-case.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type TestWebhookRoutesDeps = Parameters<typeof sendTestWebhook>[0] & {
  config: KasaConfig;
};

const INVALID = 'The test webhook request is not valid; nothing was sent.';

/**
 * The partner's `POST /test/webhooks` behind the gateway (`testWebhook` of the internal table): sends a signed sample
 * to the site's webhook URL now. No idempotency record: nothing changes, a repeat sends another sample.
 */
export function testWebhookRoutes(deps: TestWebhookRoutesDeps): Router {
  const send: RequestHandler = async (req, res) => {
    const body = parseRequest('testWebhook', req.body, INVALID);
    res.json(await sendTestWebhook(deps, pathParam(req, 'siteId'), body.type));
  };

  return internalRouter(deps.config.internalToken, [{ operation: 'testWebhook', handlers: [jsonBody, send] }]);
}

/** `POST /ops/v1/sites/:siteId/test-webhook`: the same, for an operator helping a partner (the console's button). */
export function testWebhookOpsRoutes(deps: TestWebhookRoutesDeps): Router {
  const router = express.Router();
  opsOperation(router, 'testSiteWebhook', { invalidBody: INVALID })(async ({ params: { siteId }, body }) => {
    if (!isUuid(siteId)) throw new AppError('not_found', 'No site with this id.');
    return sendTestWebhook(deps, siteId, body.type);
  });
  return router;
}
