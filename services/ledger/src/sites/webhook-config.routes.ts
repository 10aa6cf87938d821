import { type RequestHandler, type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import { readWebhookConfig, updateWebhookConfig } from './webhook-config.use-case.js';
import { internalRouter } from '../shared/internal-route.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type WebhookConfigRoutesDeps = Parameters<typeof readWebhookConfig>[0] &
  Parameters<typeof updateWebhookConfig>[0] & {
    config: KasaConfig;
  };

/**
 * The site's webhook configuration behind the gateway (endpoint 7 of docs/api.md): `putWebhookConfig` sets it, and
 * the gateway passes the acting API key's id, which the audit entry names; `getWebhookConfig` reads the URL back,
 * never the secret.
 */
export function webhookConfigRoutes(deps: WebhookConfigRoutesDeps): Router {
  const read: RequestHandler = async (req, res) => {
    res.json(await readWebhookConfig(deps, pathParam(req, 'siteId')));
  };

  const update: RequestHandler = async (req, res) => {
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
  };

  return internalRouter(deps.config.internalToken, [
    { operation: 'getWebhookConfig', handlers: [read] },
    { operation: 'putWebhookConfig', handlers: [jsonBody, update] },
  ]);
}
