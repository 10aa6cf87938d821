import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { balanceView } from './accounts.js';
import { checkJournal } from './check-journal.use-case.js';
import { siteOr404 } from '../sites/provisioning.use-case.js';
import { opsRoute } from '../shared/ops-route.js';
import { principalOf } from '../operators/operator-auth.js';
import { scopeOf } from '../operators/site-scope.js';

/** Site balances and the journal invariant check (`/ops/v1/balances`, `/ops/v1/journal/check`). */
export function journalOpsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  opsRoute(router, 'listBalances', async (_req, res) => {
    const sites = await deps.journal.allBalances(scopeOf(principalOf(res.locals)));
    res.json({
      data: sites.map((site) => ({
        ...balanceView(site.siteId, site.balances),
        slug: site.slug,
        name: site.name,
        livemode: site.livemode,
      })),
    });
  });

  opsRoute(router, 'getSiteBalance', async (req, res) => {
    const site = await siteOr404(deps.sites, pathParam(req, 'siteId'));
    res.json({
      ...balanceView(site.id, await deps.journal.balancesOf(site.id)),
      slug: site.slug,
      name: site.name,
      livemode: site.livemode,
    });
  });

  opsRoute(router, 'checkJournal', async (_req, res) => {
    res.json(await checkJournal(deps));
  });

  return router;
}
