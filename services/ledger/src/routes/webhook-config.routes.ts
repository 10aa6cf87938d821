import express, { type Router } from 'express';
import { AppError, jsonBody } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { updateWebhookConfig } from '../webhooks/webhook-config.use-case.js';
import { assertValid, internalAuth, isUuid } from './guards.js';

/**
 * `PUT /internal/v1/sites/:siteId/webhook-config` (SPEC endpoint 7 behind the gateway). The gateway passes
 * the acting API key's id, which the audit entry names.
 */
export function webhookConfigRoutes(deps: LedgerDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));

  router.put('/', jsonBody, async (req, res) => {
    const { apiKeyId, request } = req.body as { apiKeyId?: unknown; request?: { webhookUrl: string; rotateSecret?: boolean } };
    if (typeof apiKeyId !== 'string' || !isUuid(apiKeyId)) throw AppError.validation([{ field: 'apiKeyId', message: 'must be the acting API key id' }]);
    assertValid('updateWebhookConfig', request);
    const body = request as { webhookUrl: string; rotateSecret?: boolean };
    const result = await updateWebhookConfig(deps, {
      siteId: (req.params as { siteId: string }).siteId,
      apiKeyId,
      webhookUrl: body.webhookUrl,
      rotateSecret: body.rotateSecret ?? true,
    });
    res.status(200).json(result);
  });

  return router;
}
