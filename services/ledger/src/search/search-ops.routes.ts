import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { toOpsBankTransfer } from '../bank-transfers/bank-transfer.views.js';
import { toOpsDeposit } from '../deposits/deposit.views.js';
import { deliveryScheduleOf, documentedEvent, toEventView } from '../events/event-view.js';
import { approvalsView, withApprovalsRequired } from '../review/four-eyes.js';
import { toOpsWithdrawal } from '../withdrawals/withdrawal.views.js';
import { SearchRepository } from './search.repository.js';
import { searchTermsOf } from './search-terms.js';
import { opsOperation } from '../shared/ops-route.js';
import { principalOf } from '../shared/operator-principal.js';
import { scopeOf } from '../shared/site-scope.js';
import type { KasaConfig } from '@kasa/config';
import type pg from 'pg';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SearchOpsRoutesDeps = Parameters<typeof deliveryScheduleOf>[0] &
  Parameters<typeof withApprovalsRequired>[0] &
  Parameters<typeof approvalsView>[0] & {
    config: KasaConfig;
    pool: pg.Pool;
  };

const DEFAULT_LIMIT = 20;

/**
 * `GET /ops/v1/search?q=`: the console's search box and `kasa search`. Any operator; every kind of record
 * at once, each list newest first (docs/operations.md, Search).
 */
export function searchOpsRoutes(deps: SearchOpsRoutesDeps): Router {
  const router = express.Router();
  const repository = new SearchRepository(deps.pool, deps.config.opsReadTimeoutMs);
  opsOperation(
    router,
    'opsSearch',
  )(async (_input, req, res) => {
    const query = parseRequest('opsSearch', req.query, 'The search is not valid.');
    const terms = searchTermsOf(query.q);
    const found = await repository.search(terms, query.limit ? Number(query.limit) : DEFAULT_LIMIT, scopeOf(principalOf(res.locals)));
    const schedule = await deliveryScheduleOf(deps, found.events);
    return {
      query: terms.text,
      deposits: found.deposits.map(toOpsDeposit),
      withdrawals: (await withApprovalsRequired(deps, found.withdrawals, (row) => row.siteId)).map((row) =>
        toOpsWithdrawal(row, approvalsView(deps, row.status, row.approvals, row.approvalsRequired)),
      ),
      bankTransfers: found.bankTransfers.map(toOpsBankTransfer),
      events: found.events.map((row) => documentedEvent({ ...toEventView(row, schedule), siteId: row.siteId })),
    };
  });
  return router;
}
