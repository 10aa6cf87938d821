import type { Router } from 'express';
import { WITHDRAWAL_STATUSES, parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import { internalAuth } from '../shared/http-guards.js';
import { internalRouter, type InternalRoute } from '../shared/internal-route.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import { createRecordRoute, findRecordRoute, listRecordsRoute } from '../site-records/site-record.routes.js';
import { createWithdrawal } from './create-withdrawal.use-case.js';
import { toWithdrawalListItem, toWithdrawalRecord } from './withdrawal.views.js';
import type { KasaConfig } from '@kasa/config';
import type { CursorCodec } from '../shared/cursor.js';
import type { WithdrawalRepository } from './withdrawal.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type WithdrawalsRoutesDeps = Parameters<typeof createWithdrawal>[0] & {
  config: KasaConfig;
  cursors: CursorCodec;
  withdrawals: WithdrawalRepository;
};

/** The partner's withdrawals behind the gateway, at the internal table's paths, scoped by the site id in the path. */
export function withdrawalRoutes(deps: WithdrawalsRoutesDeps): Router {
  const list = listRecordsRoute(deps.cursors, 'listWithdrawals', {
    name: 'withdrawals',
    fetch: (siteId, statuses, window) => deps.withdrawals.list(siteId, knownStatuses(statuses, WITHDRAWAL_STATUSES), window),
    toItem: toWithdrawalListItem,
  });
  return internalRouter(deps.config.internalToken, [...withdrawalHotRoutes(deps), { operation: 'listWithdrawals', handlers: [list] }]);
}

/** The create and the lookup: the gateway's hot calls, also on the internal route table (internal-routes.ts). */
export function withdrawalHotRoutes(deps: WithdrawalsRoutesDeps): InternalRoute[] {
  const auth = internalAuth(deps.config.internalToken);
  return [
    {
      operation: 'createWithdrawal',
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
      operation: 'getWithdrawal',
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
