import { type RequestHandler, type Router } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { pathParam } from '@kasa/http';
import { internalRouter } from '../shared/internal-route.js';
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
 * The partner's `GET /balance` behind the gateway (`getBalance` of the internal table): the site's own journal
 * balances only, `available` from `site_available` and `reserved` from `site_reserved` (approved withdrawals not sent
 * yet), as the operators' balance shows them. Beside it the movements of those two balances (`listBalanceTransactions`,
 * the partner's `GET /balance-transactions`) and their signed daily statements (`getBalanceStatementKeys`,
 * `getBalanceStatement`), each read for the site in the path only.
 */
export function balanceRoutes(deps: BalanceRoutesDeps): Router {
  const balance: RequestHandler = async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const { available, reserved, currency } = balanceView(siteId, await deps.journal.balancesOf(siteId));
    res.json({ available, reserved, currency });
  };

  const transactions: RequestHandler = async (req, res) => {
    const query = parseRequest('listBalanceTransactions', req.query, LIST_FILTERS_INVALID);
    res.json(await listBalanceTransactions(deps, pathParam(req, 'siteId'), query));
  };

  const statementKeys: RequestHandler = (_req, res) => {
    res.json({ keys: [deps.statementSigner.key] });
  };

  const statement: RequestHandler = async (req, res) => {
    res.json(await balanceStatement(deps, pathParam(req, 'siteId'), pathParam(req, 'date')));
  };

  return internalRouter(deps.config.internalToken, [
    { operation: 'getBalance', handlers: [balance] },
    { operation: 'listBalanceTransactions', handlers: [transactions] },
    // Before `getBalanceStatement`, whose `:date` would take `keys`.
    { operation: 'getBalanceStatementKeys', handlers: [statementKeys] },
    { operation: 'getBalanceStatement', handlers: [statement] },
  ]);
}
