import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import { internalAuth, isUuid } from '../shared/http-guards.js';
import { opsRoute } from '../shared/ops-route.js';
import { sendTestWebhook } from './test-webhook.use-case.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type TestWebhookRoutesDeps = Parameters<typeof sendTestWebhook>[0] & {
  config: KasaConfig;
};

const INVALID = 'The test webhook request is not valid; nothing was sent.';

/**
 * `POST /internal/v1/sites/:siteId/test-webhook` (the partner's `POST /test/webhooks`, behind the gateway): sends a
 * signed sample to the site's webhook URL now. No idempotency record: nothing changes, a repeat sends another sample.
 */
export function testWebhookRoutes(deps: TestWebhookRoutesDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));
  router.post('/', jsonBody, async (req, res) => {
    const body = parseRequest('testWebhook', req.body, INVALID);
    res.json(await sendTestWebhook(deps, pathParam(req, 'siteId'), body.type));
  });
  return router;
}

/** `POST /ops/v1/sites/:siteId/test-webhook`: the same, for an operator helping a partner (the console's button). */
export function testWebhookOpsRoutes(deps: TestWebhookRoutesDeps): Router {
  const router = express.Router();
  opsRoute(router, 'testSiteWebhook', jsonBody, async (req, res) => {
    const body = parseRequest('testWebhook', req.body, INVALID);
    const siteId = pathParam(req, 'siteId');
    if (!isUuid(siteId)) throw new AppError('not_found', 'No site with this id.');
    res.json(await sendTestWebhook(deps, siteId, body.type));
  });
  return router;
}
