import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { balanceView } from './accounts.js';
import { checkJournal } from './check-journal.use-case.js';
import { siteOr404 } from '../sites/provisioning.use-case.js';

/** Site balances and the journal invariant check (`/ops/v1/balances`, `/ops/v1/journal/check`). */
export function journalOpsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  router.get('/balances', async (_req, res) => {
    const sites = await deps.journal.allBalances();
    res.json({ data: sites.map((site) => ({ ...balanceView(site.siteId, site.balances), slug: site.slug, name: site.name })) });
  });

  router.get('/sites/:siteId/balance', async (req, res) => {
    const site = await siteOr404(deps.sites, pathParam(req, 'siteId'));
    res.json({ ...balanceView(site.id, await deps.journal.balancesOf(site.id)), slug: site.slug, name: site.name });
  });

  router.get('/journal/check', async (_req, res) => {
    res.json(await checkJournal(deps));
  });

  return router;
}
