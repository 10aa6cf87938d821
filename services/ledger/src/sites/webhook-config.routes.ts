import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import { readWebhookConfig, updateWebhookConfig } from './webhook-config.use-case.js';
import { internalAuth } from '../shared/http-guards.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type WebhookConfigRoutesDeps = Parameters<typeof readWebhookConfig>[0] &
  Parameters<typeof updateWebhookConfig>[0] & {
    config: KasaConfig;
  };

/**
 * `PUT /internal/v1/sites/:siteId/webhook-config` (endpoint 7 of docs/api.md, behind the gateway). The gateway passes
 * the acting API key's id, which the audit entry names. `GET` reads the URL back, never the secret.
 */
export function webhookConfigRoutes(deps: WebhookConfigRoutesDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));

  router.get('/', async (req, res) => {
    res.json(await readWebhookConfig(deps, pathParam(req, 'siteId')));
  });

  router.put('/', jsonBody, async (req, res) => {
    const { apiKeyId, request } = parseRequest('webhookConfigEnvelope', req.body);
    const body = parseRequest('updateWebhookConfig', request);
    const result = await updateWebhookConfig(deps, {
      siteId: pathParam(req, 'siteId'),
      apiKeyId,
      webhookUrl: body.webhookUrl,
      rotateSecret: body.rotateSecret ?? true,
      ...(body.eventTypes ? { eventTypes: body.eventTypes } : {}),
    });
    res.status(200).json(result);
  });

  return router;
}
