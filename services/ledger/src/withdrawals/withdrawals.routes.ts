import express, { type Router } from 'express';
import { WITHDRAWAL_STATUSES, parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth } from '../shared/http-guards.js';
import { routerOf, type InternalRoute } from '../internal-routes.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import { createRecordRoute, findRecordRoute, listRecordsRoute } from '../site-records/site-record.routes.js';
import { createWithdrawal } from './create-withdrawal.use-case.js';
import { toWithdrawalListItem, toWithdrawalRecord } from './withdrawal.views.js';

/** The partner's withdrawals behind the gateway (`/internal/v1`), scoped by the site id in the path. */
export function withdrawalRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));
  router.use(routerOf(withdrawalHotRoutes(deps)));
  router.get(
    '/sites/:siteId/withdrawals',
    listRecordsRoute(deps.cursors, 'listWithdrawals', {
      name: 'withdrawals',
      fetch: (siteId, statuses, window) => deps.withdrawals.list(siteId, knownStatuses(statuses, WITHDRAWAL_STATUSES), window),
      toItem: toWithdrawalListItem,
    }),
  );
  return router;
}

/** The create and the lookup: the gateway's hot calls, also on the internal route table (internal-routes.ts). */
export function withdrawalHotRoutes(deps: LedgerDeps): InternalRoute[] {
  const auth = internalAuth(deps.config.internalToken);
  return [
    {
      method: 'POST',
      path: '/sites/:siteId/withdrawals',
      handlers: [
        auth,
        jsonBody,
        createRecordRoute(
          (request) => parseRequest('createWithdrawal', request),
          (command) => createWithdrawal(deps, command),
        ),
      ],
    },
    {
      method: 'GET',
      path: '/sites/:siteId/withdrawals/:withdrawalId',
      handlers: [
        auth,
        findRecordRoute(
          'withdrawalId',
          (siteId, id) => deps.withdrawals.findInSite(siteId, id),
          toWithdrawalRecord,
          'No withdrawal with this id.',
        ),
      ],
    },
  ];
}
