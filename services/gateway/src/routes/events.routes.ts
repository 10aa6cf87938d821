import express, { type Response, type Router } from 'express';
import { fingerprintOf, validateRequest } from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { idempotencyKeyOf, type StoredResponse } from '../middleware/idempotency.js';

function send(res: Response, result: StoredResponse): void {
  res.status(result.status);
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.type('application/json').send(result.body);
}

/**
 * The events surface (DESIGN section 4): the site's delivery ledger and replay. Mounted inside the partner
 * router, after authentication and rate limiting; the ledger scopes every read to the key's site.
 */
export function eventRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  const site = (res: Response) => encodeURIComponent(res.locals.principal.siteId);

  router.get('/events', async (req, res) => {
    const errors = validateRequest('listEvents', req.query);
    if (errors.length > 0) throw AppError.validation(errors, 'The list filters are not valid.');
    const query = new URLSearchParams(req.query as Record<string, string>).toString();
    send(res, await deps.ledger.request('GET', `/internal/v1/sites/${site(res)}/events${query ? `?${query}` : ''}`, req.requestId));
  });

  router.get('/events/:eventId', async (req, res) => {
    const id = encodeURIComponent((req.params as { eventId: string }).eventId);
    send(res, await deps.ledger.request('GET', `/internal/v1/sites/${site(res)}/events/${id}`, req.requestId));
  });

  router.post('/events/:eventId/replay', jsonBody, async (req, res) => {
    const key = idempotencyKeyOf(req.get('idempotency-key'));
    if (Object.keys(req.body as object).length > 0) {
      throw AppError.validation(
        Object.keys(req.body as object).map((field) => ({ field, message: 'is not an allowed field' })),
        'A replay takes no body.',
      );
    }
    const { eventId } = req.params as { eventId: string };
    // The event is part of the fingerprint: one key reused for another event is a different request.
    const fingerprint = fingerprintOf({ eventId });
    const { siteId, apiKeyId } = res.locals.principal;
    const result = await deps.idempotency.run({ siteId, route: 'events.replay', key, fingerprint }, () =>
      deps.ledger.request('POST', `/internal/v1/sites/${site(res)}/events/${encodeURIComponent(eventId)}/replay`, req.requestId, {
        idempotencyKey: key,
        fingerprint,
        apiKeyId,
      }),
    );
    send(res, result);
  });

  return router;
}
