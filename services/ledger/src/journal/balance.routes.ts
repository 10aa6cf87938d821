import express, { type Router } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { pathParam } from '@kasa/http';
import { internalAuth } from '../shared/http-guards.js';
import { balanceView } from './accounts.js';
import { balanceStatement, listBalanceTransactions } from './balance-statements.use-case.js';
import type { KasaConfig } from '@kasa/config';
import type { JournalRepository } from './journal.repository.js';
import type { StatementSigner } from './statement-signer.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type BalanceRoutesDeps = Parameters<typeof listBalanceTransactions>[0] & {
  config: KasaConfig;
  journal: JournalRepository;
  statementSigner: StatementSigner;
};

/**
 * `GET /internal/v1/sites/:siteId/balance` (the partner's `GET /balance`, behind the gateway): the site's own
 * journal balances only, `available` from `site_available` and `reserved` from `site_reserved` (approved
 * withdrawals not sent yet), as the operators' balance shows them. Beneath it the movements of those two balances
 * (`/transactions`, the partner's `GET /balance-transactions`) and their signed daily statements (`/statements/...`),
 * each read for the site in the path only.
 */
export function balanceRoutes(deps: BalanceRoutesDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));

  router.get('/', async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const { available, reserved, currency } = balanceView(siteId, await deps.journal.balancesOf(siteId));
    res.json({ available, reserved, currency });
  });

  router.get('/transactions', async (req, res) => {
    const query = parseRequest('listBalanceTransactions', req.query, LIST_FILTERS_INVALID);
    res.json(await listBalanceTransactions(deps, pathParam(req, 'siteId'), query));
  });

  router.get('/statements/keys', (_req, res) => {
    res.json({ keys: [deps.statementSigner.key] });
  });

  router.get('/statements/:date', async (req, res) => {
    res.json(await balanceStatement(deps, pathParam(req, 'siteId'), pathParam(req, 'date')));
  });

  return router;
}
