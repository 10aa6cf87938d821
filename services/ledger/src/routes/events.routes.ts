import express, { type Router } from 'express';
import { AppError, jsonBody } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { listEvents, type EventListQuery } from '../events/list-events.use-case.js';
import { replayEvent } from '../events/replay-event.use-case.js';
import { toEventDetail } from '../events/event-view.js';
import { internalAuth, isUuid } from './guards.js';

const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The partner's events surface behind the gateway, mounted at `/internal/v1/sites/:siteId/events`. Every read
 * is scoped by the site, so another site's event answers exactly like a missing one.
 */
export function eventRoutes(deps: LedgerDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));
  const siteOf = (params: unknown) => (params as { siteId: string }).siteId;

  router.get('/', async (req, res) => {
    res.json(await listEvents(deps, siteOf(req.params), req.query as EventListQuery));
  });

  router.get('/:eventId', async (req, res) => {
    const { eventId } = req.params as { eventId: string };
    // A malformed id takes the same query path as a well-formed one, so timing reveals nothing.
    const row = await deps.events.find(isUuid(eventId) ? eventId : NO_SUCH_ID, siteOf(req.params));
    if (!row) throw new AppError('not_found', 'No event with this id.');
    res.json(toEventDetail(row));
  });

  router.post('/:eventId/replay', jsonBody, async (req, res) => {
    const { eventId } = req.params as { eventId: string };
    const { idempotencyKey, fingerprint, apiKeyId } = req.body as { idempotencyKey?: unknown; fingerprint?: unknown; apiKeyId?: unknown };
    if (typeof idempotencyKey !== 'string' || typeof fingerprint !== 'string' || !/^[0-9a-f]{64}$/.test(fingerprint) || typeof apiKeyId !== 'string') {
      throw AppError.validation([{ field: 'idempotencyKey', message: 'envelope is incomplete' }]);
    }
    const result = await replayEvent(deps, {
      eventId: isUuid(eventId) ? eventId : NO_SUCH_ID,
      siteId: siteOf(req.params),
      actor: { type: 'API_KEY', id: apiKeyId },
      idempotency: { key: idempotencyKey, fingerprint },
    });
    res.status(202).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  });

  return router;
}
