import express, { type Router } from 'express';
import { DEPOSIT_STATUSES, parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth, lookupId } from '../shared/http-guards.js';
import type { ListWindow } from '../shared/keyset.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import { listPage } from '../shared/partner-list.use-case.js';
import { createDeposit } from './create-deposit.use-case.js';
import { toDepositListItem, toDepositRecord } from './deposit.views.js';

/**
 * The partner's deposits behind the gateway (`/internal/v1`). The gateway has authenticated the partner and
 * passes the site id in the path; every read is scoped by it, so another site's intent answers like a missing one.
 */
export function depositRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));

  router.post('/sites/:siteId/deposits', jsonBody, async (req, res) => {
    const { idempotencyKey, fingerprint, request } = parseRequest('createEnvelope', req.body);
    const body = parseRequest('createDeposit', request);
    const result = await createDeposit(deps, { siteId: pathParam(req, 'siteId'), idempotencyKey, fingerprint, body });
    res.status(201).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  });

  router.get('/sites/:siteId/intents/:intentId', async (req, res) => {
    const row = await deps.deposits.findInSite(pathParam(req, 'siteId'), lookupId(pathParam(req, 'intentId')));
    if (!row) throw new AppError('not_found', 'No deposit intent with this id.');
    res.json(toDepositRecord(row));
  });

  router.get('/sites/:siteId/intents', async (req, res) => {
    const query = parseRequest('listIntents', req.query, LIST_FILTERS_INVALID);
    const source = {
      name: 'intents',
      fetch: (siteId: string, statuses: string[] | undefined, window: ListWindow) =>
        deps.deposits.list(siteId, knownStatuses(statuses, DEPOSIT_STATUSES), window),
      toItem: toDepositListItem,
    };
    res.json(await listPage(source, deps.cursors, pathParam(req, 'siteId'), query));
  });

  return router;
}
