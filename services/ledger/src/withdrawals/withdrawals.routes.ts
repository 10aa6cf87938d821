import express, { type Router } from 'express';
import { WITHDRAWAL_STATUSES, parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth, lookupId } from '../shared/http-guards.js';
import type { ListWindow } from '../shared/keyset.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import { listPage } from '../shared/partner-list.use-case.js';
import { createWithdrawal } from './create-withdrawal.use-case.js';
import { toWithdrawalListItem, toWithdrawalRecord } from './withdrawal.views.js';

/** The partner's withdrawals behind the gateway (`/internal/v1`), scoped by the site id in the path. */
export function withdrawalRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));

  router.post('/sites/:siteId/withdrawals', jsonBody, async (req, res) => {
    const { idempotencyKey, fingerprint, request } = parseRequest('createEnvelope', req.body);
    const body = parseRequest('createWithdrawal', request);
    const result = await createWithdrawal(deps, { siteId: pathParam(req, 'siteId'), idempotencyKey, fingerprint, body });
    res.status(201).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  });

  router.get('/sites/:siteId/withdrawals/:withdrawalId', async (req, res) => {
    const row = await deps.withdrawals.findInSite(pathParam(req, 'siteId'), lookupId(pathParam(req, 'withdrawalId')));
    if (!row) throw new AppError('not_found', 'No withdrawal with this id.');
    res.json(toWithdrawalRecord(row));
  });

  router.get('/sites/:siteId/withdrawals', async (req, res) => {
    const query = parseRequest('listWithdrawals', req.query, LIST_FILTERS_INVALID);
    const source = {
      name: 'withdrawals',
      fetch: (siteId: string, statuses: string[] | undefined, window: ListWindow) =>
        deps.withdrawals.list(siteId, knownStatuses(statuses, WITHDRAWAL_STATUSES), window),
      toItem: toWithdrawalListItem,
    };
    res.json(await listPage(source, deps.cursors, pathParam(req, 'siteId'), query));
  });

  return router;
}
