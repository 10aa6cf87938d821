import { type RequestHandler, type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import { listEvents } from './list-events.use-case.js';
import { recoverEvents, RECOVER_INVALID } from './recover-events.use-case.js';
import { replayEvent } from './replay-event.use-case.js';
import { deliveryScheduleOf, toEventDetail } from './event-view.js';
import { lookupId } from '../shared/http-guards.js';
import { internalRouter } from '../shared/internal-route.js';
import type { KasaConfig } from '@kasa/config';
import type { EventRepository } from './event.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type EventsRoutesDeps = Parameters<typeof listEvents>[0] &
  Parameters<typeof recoverEvents>[0] &
  Parameters<typeof deliveryScheduleOf>[0] & {
    config: KasaConfig;
    events: EventRepository;
  };

/**
 * The partner's events surface behind the gateway, each handler at its operation's path in the internal table. Every
 * read is scoped by the site in the path, so another site's event answers exactly like a missing one.
 */
export function eventRoutes(deps: EventsRoutesDeps): Router {
  const list: RequestHandler = async (req, res) => {
    res.json(await listEvents(deps, pathParam(req, 'siteId'), parseRequest('listEvents', req.query, LIST_FILTERS_INVALID)));
  };

  const recover: RequestHandler = async (req, res) => {
    const { idempotencyKey, fingerprint, apiKeyId, request } = parseRequest('recoverEventsEnvelope', req.body);
    const body = parseRequest('recoverEvents', request, RECOVER_INVALID);
    const result = await recoverEvents(deps, {
      siteId: pathParam(req, 'siteId'),
      since: new Date(body.since),
      ...(body.until ? { until: new Date(body.until) } : {}),
      actor: { type: 'API_KEY', id: apiKeyId },
      idempotency: { key: idempotencyKey, fingerprint },
      requestId: req.requestId,
    });
    res.status(200).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  };

  const find: RequestHandler = async (req, res) => {
    const row = await deps.events.find(lookupId(pathParam(req, 'eventId')), pathParam(req, 'siteId'));
    if (!row) throw new AppError('not_found', 'No event with this id.');
    res.json(toEventDetail(row, await deliveryScheduleOf(deps, [row])));
  };

  const replay: RequestHandler = async (req, res) => {
    const { idempotencyKey, fingerprint, apiKeyId } = parseRequest('replayEnvelope', req.body);
    const result = await replayEvent(deps, {
      eventId: lookupId(pathParam(req, 'eventId')),
      siteId: pathParam(req, 'siteId'),
      actor: { type: 'API_KEY', id: apiKeyId },
      idempotency: { key: idempotencyKey, fingerprint },
      requestId: req.requestId,
    });
    res.status(202).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  };

  return internalRouter(deps.config.internalToken, [
    { operation: 'listEvents', handlers: [list] },
    { operation: 'recoverEvents', handlers: [jsonBody, recover] },
    { operation: 'getEvent', handlers: [find] },
    { operation: 'replayEvent', handlers: [jsonBody, replay] },
  ]);
}
