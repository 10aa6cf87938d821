import express, { type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { listEvents } from './list-events.use-case.js';
import { replayEvent } from './replay-event.use-case.js';
import { replayDeadEvents } from './recover-events.use-case.js';
import { retryEventNow } from './retry-event-now.use-case.js';
import {
  deliveryScheduleOf,
  documentedEvent,
  toEventDetail,
  toEventView,
  withUser,
  withUsers,
  type DeliverySchedule,
} from './event-view.js';
import type { EventRow } from './event.repository.js';
import { principalOf } from '../shared/operator-principal.js';
import { scopeOf } from '../shared/site-scope.js';
import { actorOf } from '../shared/operator-principal.js';
import { foundOr404, isUuid, opsAuth } from '../shared/http-guards.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { wantsCsv } from '../shared/csv.js';
import { sendOpsListCsv } from '../shared/ops-list-csv.js';
import { LIST_TOO_SLOW, readWithTimeout } from '../shared/read-timeout.repository.js';
import type { Clock } from '../shared/clock.js';
import type { KasaConfig } from '@kasa/config';
import type { PrismaClient } from '@kasa/db';
import type { EventRepository } from './event.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type EventsOpsRoutesDeps = Parameters<typeof listEvents>[0] &
  Parameters<typeof deliveryScheduleOf>[0] &
  Parameters<typeof replayEvent>[0] &
  Parameters<typeof retryEventNow>[0] & {
    clock: Clock;
    config: KasaConfig;
    db: PrismaClient;
    events: EventRepository;
    sites: SiteRepository;
  };

/**
 * The operators' delivery ledger (`/ops/v1/events`): every site's events with a `siteId` filter,
 * one event with its attempts, replay (one event, or a site's DEAD ones) and retry-now of a PENDING one, each audited
 * with the operator.
 */
export function eventOpsRoutes(deps: EventsOpsRoutesDeps): Router {
  const router = express.Router();
  router.use(opsAuth(deps.config.opsBootstrapToken));

  opsRoute(router, 'opsListEvents', async (req, res) => {
    const { siteId, ...query } = req.query;
    if (siteId !== undefined && (typeof siteId !== 'string' || !isUuid(siteId))) {
      throw AppError.validation([{ field: 'siteId', message: 'must be a site id (UUID)' }], LIST_FILTERS_INVALID);
    }
    // Across sites, each event names its site.
    const toOpsEvent = (row: EventRow, schedule: DeliverySchedule) => ({ ...toEventView(row, schedule), siteId: row.siteId });
    const filters = parseRequest('listEvents', query, LIST_FILTERS_INVALID);
    const scope = scopeOf(principalOf(res.locals));
    // Each page, of a CSV export too, in a transaction of its own whose statement timeout is OPS_READ_TIMEOUT_MS.
    const readPage = (page: typeof filters) =>
      readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, LIST_TOO_SLOW, async (tx) => {
        const read = await listEvents(deps, siteId, page, toOpsEvent, scope, tx);
        return { ...read, data: await withUsers(deps.events, read.data, tx) };
      });
    if (wantsCsv(req)) return sendOpsListCsv(res, 'events', (window) => readPage({ ...filters, cursor: undefined, ...window }));
    res.json(await readPage(filters));
  });

  opsOperation(
    router,
    'opsGetEvent',
  )(async ({ params }) => {
    const row = await foundOr404(params.eventId, (id) => deps.events.find(id), 'No event with this id.');
    const detail = toEventDetail(row, await deliveryScheduleOf(deps, [row]));
    return withUser(deps.events, documentedEvent({ ...detail, siteId: row.siteId }));
  });

  opsOperation(
    router,
    'opsReplayEvent',
  )(async ({ params: { eventId } }, req, res) => {
    if (!isUuid(eventId)) throw new AppError('not_found', 'No event with this id.');
    const result = await replayEvent(deps, { eventId, actor: actorOf(principalOf(res.locals)), requestId: req.requestId });
    return documentedEvent(result.body);
  });

  opsOperation(
    router,
    'opsRetryEventNow',
  )(async ({ params: { eventId } }, req, res) => {
    if (!isUuid(eventId)) throw new AppError('not_found', 'No event with this id.');
    const event = await retryEventNow(deps, { eventId, actor: actorOf(principalOf(res.locals)), requestId: req.requestId });
    return withUser(deps.events, documentedEvent(event));
  });

  opsOperation(
    router,
    'opsReplayDeadEvents',
  )(async ({ params }, req, res) => {
    const site = await foundOr404(params.siteId, (id) => deps.sites.findById(id), 'No site with this id.');
    // Every DEAD event the site has, whatever its age: from the epoch to the ledger's now.
    const window = { since: new Date(0), until: deps.clock.now() };
    const actor = actorOf(principalOf(res.locals));
    return replayDeadEvents(deps, { siteId: site.id, ...window, actor, requestId: req.requestId });
  });

  return router;
}
