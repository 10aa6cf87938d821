import express, { type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { listEvents } from './list-events.use-case.js';
import { replayEvent } from './replay-event.use-case.js';
import { deliveryScheduleOf, toEventDetail, toEventView, type DeliverySchedule } from './event-view.js';
import type { EventRow } from './event.repository.js';
import { principalOf } from '../operators/operator-auth.js';
import { actorOf } from '../operators/operator-principal.js';
import { foundOr404, isUuid, opsAuth } from '../shared/http-guards.js';
import { opsRoute } from '../shared/ops-route.js';

/**
 * The operators' delivery ledger (`/ops/v1/events`): every site's events with a `siteId` filter,
 * one event with its attempts, and replay (audited with the operator).
 */
export function eventOpsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(opsAuth(deps.config.opsBootstrapToken));

  opsRoute(router, 'opsListEvents', async (req, res) => {
    const { siteId, ...query } = req.query;
    if (siteId !== undefined && (typeof siteId !== 'string' || !isUuid(siteId))) {
      throw AppError.validation([{ field: 'siteId', message: 'must be a site id (UUID)' }], LIST_FILTERS_INVALID);
    }
    // Across sites, each event names its site.
    const toOpsEvent = (row: EventRow, schedule: DeliverySchedule) => ({ ...toEventView(row, schedule), siteId: row.siteId });
    res.json(await listEvents(deps, siteId, parseRequest('listEvents', query, LIST_FILTERS_INVALID), toOpsEvent));
  });

  opsRoute(router, 'opsGetEvent', async (req, res) => {
    const row = await foundOr404(pathParam(req, 'eventId'), (id) => deps.events.find(id), 'No event with this id.');
    res.json({ ...toEventDetail(row, await deliveryScheduleOf(deps, [row])), siteId: row.siteId });
  });

  opsRoute(router, 'opsReplayEvent', jsonBody, async (req, res) => {
    const eventId = pathParam(req, 'eventId');
    if (!isUuid(eventId)) throw new AppError('not_found', 'No event with this id.');
    const result = await replayEvent(deps, { eventId, actor: actorOf(principalOf(res.locals)), requestId: req.requestId });
    res.status(202).json(result.body);
  });

  return router;
}
