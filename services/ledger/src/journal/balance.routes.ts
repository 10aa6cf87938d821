import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth } from '../shared/http-guards.js';
import { balanceView } from './accounts.js';

/**
 * `GET /internal/v1/sites/:siteId/balance` (the partner's `GET /balance`, behind the gateway): the site's own
 * journal balances only, `available` from `site_available` and `reserved` from `site_reserved` (approved
 * withdrawals not sent yet), as the operators' balance shows them.
 */
export function balanceRoutes(deps: LedgerDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use(internalAuth(deps.config.internalToken));

  router.get('/', async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const { available, reserved, currency } = balanceView(siteId, await deps.journal.balancesOf(siteId));
    res.json({ available, reserved, currency });
  });

  return router;
}
