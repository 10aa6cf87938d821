import express, { type Router } from 'express';
import { AppError, jsonBody } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { listEvents, type EventListQuery } from '../events/list-events.use-case.js';
import { replayEvent } from '../events/replay-event.use-case.js';
import { toEventDetail } from '../events/event-view.js';
import type { Actor } from '../repositories/audit.repository.js';
import { isUuid, opsAuth } from './guards.js';

/**
 * The operators' delivery ledger, mounted at `/ops/v1/events`: every site's events with a `siteId` filter,
 * one event with its attempts, and replay (audited with the operator).
 */
export function eventOpsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(opsAuth(deps.config.opsBootstrapToken));

  router.get('/', async (req, res) => {
    const { siteId, ...query } = req.query as EventListQuery & { siteId?: unknown };
    if (siteId !== undefined && (typeof siteId !== 'string' || !isUuid(siteId))) {
      throw AppError.validation([{ field: 'siteId', message: 'must be a site id (UUID)' }], 'The list filters are not valid.');
    }
    res.json(await listEvents(deps, siteId, query));
  });

  router.get('/:eventId', async (req, res) => {
    const { eventId } = req.params as { eventId: string };
    const row = isUuid(eventId) ? await deps.events.find(eventId) : null;
    if (!row) throw new AppError('not_found', 'No event with this id.');
    res.json({ ...toEventDetail(row), siteId: row.siteId });
  });

  router.post('/:eventId/replay', jsonBody, async (req, res) => {
    const { eventId } = req.params as { eventId: string };
    if (!isUuid(eventId)) throw new AppError('not_found', 'No event with this id.');
    const result = await replayEvent(deps, { eventId, actor: res.locals.actor as Actor });
    res.status(202).json(result.body);
  });

  return router;
}
