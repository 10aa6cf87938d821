import express, { type Router } from 'express';
import { balanceView } from './accounts.js';
import { checkJournal } from './check-journal.use-case.js';
import { foundOr404 } from '../shared/http-guards.js';
import { opsOperation } from '../shared/ops-route.js';
import { principalOf } from '../shared/operator-principal.js';
import { scopeOf } from '../shared/site-scope.js';
import type { JournalRepository } from './journal.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type JournalOpsRoutesDeps = Parameters<typeof checkJournal>[0] & {
  journal: JournalRepository;
  sites: SiteRepository;
};

/** Site balances and the journal invariant check (`/ops/v1/balances`, `/ops/v1/journal/check`). */
export function journalOpsRoutes(deps: JournalOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(
    router,
    'listBalances',
  )(async (_input, _req, res) => {
    const sites = await deps.journal.allBalances(scopeOf(principalOf(res.locals)));
    return {
      data: sites.map((site) => ({
        ...balanceView(site.siteId, site.balances),
        slug: site.slug,
        name: site.name,
        livemode: site.livemode,
      })),
    };
  });

  opsOperation(
    router,
    'getSiteBalance',
  )(async ({ params }) => {
    const site = await foundOr404(params.siteId, (id) => deps.sites.findById(id), 'No site with this id.');
    return {
      ...balanceView(site.id, await deps.journal.balancesOf(site.id)),
      slug: site.slug,
      name: site.name,
      livemode: site.livemode,
    };
  });

  opsOperation(
    router,
    'checkJournal',
  )(async () => {
    const report = await checkJournal(deps);
    // Each problem as the schema's open object: the interface JournalProblem has no index signature to give it.
    return { ...report, problems: report.problems.map(({ kind, detail }) => ({ kind, detail })) };
  });

  return router;
}
