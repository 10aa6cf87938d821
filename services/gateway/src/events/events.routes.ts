import express, { type Router } from 'express';
import { fingerprintOf, LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { partnerRoute } from '../partner-api/partner-route.js';
import { sendStored, siteOf } from '../partner-api/respond.js';
import { searchOf } from '../partner-api/search-params.js';

/**
 * The events surface (docs/api.md, Events): the site's delivery ledger, replay of one event and recovery of a
 * window's DEAD events. Mounted inside the partner
 * router, after authentication and rate limiting; the ledger scopes every read to the key's site.
 */
export function eventRoutes(deps: GatewayDeps): Router {
  const router = express.Router();

  partnerRoute(router, 'listEvents', async (req, res) => {
    const filters = parseRequest('listEvents', req.query, LIST_FILTERS_INVALID);
    const query = searchOf(filters);
    sendStored(res, await deps.ledger.call('listEvents', siteOf(res), req.requestId, { query }));
  });

  // Before `/events/:eventId` in reading order only: a POST shares no path with the GET.
  partnerRoute(router, 'recoverEvents', jsonBody, async (req, res) => {
    const key = idempotencyKeyOf(req.get('idempotency-key'));
    const body = parseRequest('recoverEvents', req.body, 'The recovery window is not valid; nothing was replayed.');
    const fingerprint = fingerprintOf(body);
    const { siteId, apiKeyId } = res.locals.principal;
    const result = await deps.idempotency.run({ siteId, route: 'events.recover', key, fingerprint }, () =>
      deps.ledger.call('recoverEvents', { siteId }, req.requestId, { body: { idempotencyKey: key, fingerprint, apiKeyId, request: body } }),
    );
    sendStored(res, result);
  });

  partnerRoute(router, 'getEvent', async (req, res) => {
    const eventId = pathParam(req, 'eventId');
    sendStored(res, await deps.ledger.call('getEvent', { ...siteOf(res), eventId }, req.requestId));
  });

  partnerRoute(router, 'replayEvent', jsonBody, async (req, res) => {
    const key = idempotencyKeyOf(req.get('idempotency-key'));
    const body: unknown = req.body;
    const fields = body !== null && typeof body === 'object' ? Object.keys(body) : [];
    if (fields.length > 0) {
      throw AppError.validation(
        fields.map((field) => ({ field, message: 'is not an allowed field' })),
        'A replay takes no body.',
      );
    }
    const eventId = pathParam(req, 'eventId');
    // The event is part of the fingerprint: one key reused for another event is a different request.
    const fingerprint = fingerprintOf({ eventId });
    const { siteId, apiKeyId } = res.locals.principal;
    const result = await deps.idempotency.run({ siteId, route: 'events.replay', key, fingerprint }, () =>
      deps.ledger.call('replayEvent', { siteId, eventId }, req.requestId, { body: { idempotencyKey: key, fingerprint, apiKeyId } }),
    );
    sendStored(res, result);
  });

  return router;
}
