import type { Router } from 'express';
import { DEPOSIT_STATUSES, parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import { internalAuth } from '../shared/http-guards.js';
import { internalRouter, type InternalRoute } from '../shared/internal-route.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import { createRecordRoute, findRecordRoute, listRecordsRoute } from '../site-records/site-record.routes.js';
import { createDeposit } from './create-deposit.use-case.js';
import { toDepositListItem, toDepositRecord } from './deposit.views.js';
import type { KasaConfig } from '@kasa/config';
import type { CursorCodec } from '../shared/cursor.js';
import type { DepositRepository } from './deposit.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type DepositsRoutesDeps = Parameters<typeof createDeposit>[0] & {
  config: KasaConfig;
  cursors: CursorCodec;
  deposits: DepositRepository;
};

/**
 * The partner's deposits behind the gateway, at the internal table's paths. The gateway has authenticated the partner
 * and passes the site id in the path; every read is scoped by it, so another site's intent answers like a missing one.
 */
export function depositRoutes(deps: DepositsRoutesDeps): Router {
  const list = listRecordsRoute(deps.cursors, 'listIntents', {
    name: 'intents',
    fetch: (siteId, statuses, window) => deps.deposits.list(siteId, knownStatuses(statuses, DEPOSIT_STATUSES), window),
    toItem: toDepositListItem,
  });
  return internalRouter(deps.config.internalToken, [...depositHotRoutes(deps), { operation: 'listIntents', handlers: [list] }]);
}

/** The create and the lookup: the gateway's hot calls, also on the internal route table (internal-routes.ts). */
export function depositHotRoutes(deps: DepositsRoutesDeps): InternalRoute[] {
  const auth = internalAuth(deps.config.internalToken);
  return [
    {
      operation: 'createDeposit',
      handlers: [
        auth,
        jsonBody,
        createRecordRoute(
          (request) => parseRequest('createDeposit', request),
          (command) => createDeposit(deps, command),
        ),
      ],
    },
    {
      operation: 'getIntent',
      handlers: [
        auth,
        findRecordRoute(
          'intentId',
          (siteId, id) => deps.deposits.findInSite(siteId, id),
          toDepositRecord,
          'No deposit intent with this id.',
        ),
      ],
    },
  ];
}
