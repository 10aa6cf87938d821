import type { RequestHandler, Router } from 'express';
import { AppError } from '@kasa/http';
import { findDepositByTokenHash } from '../deposits/deposit-page.repository.js';
import { tokenHashOf } from '../deposits/deposit-page.routes.js';
import type { Clock } from '../shared/clock.js';
import { internalAuth } from '../shared/http-guards.js';
import { routerOf } from '../shared/internal-route.js';
import { simulateTransfer } from './simulator.use-case.js';
import type { KasaConfig } from '@kasa/config';
import type { PrismaClient } from '@kasa/db';

/** What this route needs of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type DepositPageSimulationDeps = Parameters<typeof simulateTransfer>[0] & { clock: Clock; config: KasaConfig; db: PrismaClient };

/**
 * A test deposit's "Simulate the transfer" on its hosted page (docs/hosted-page.md, Test mode), the internal table's
 * `simulateDepositPageTransfer`: the sandbox's simulator with its defaults (the requested amount, the reference, the
 * user's label), audited as SYSTEM `hosted-page`, while the intent waits for money. A live deposit answers 404 like an
 * unknown link; once the intent has moved on or expired, a repeat changes nothing. It lives with the simulator, whose
 * use case it runs, rather than with the page's reads in deposits/.
 */
export function depositPageSimulationRoutes(deps: DepositPageSimulationDeps): Router {
  const simulate: RequestHandler = async (req, res) => {
    const deposit = await findDepositByTokenHash(deps.db, tokenHashOf(req));
    if (!deposit || deposit.site.livemode) throw new AppError('not_found', 'No deposit page for this link.');
    const waiting = deposit.status === 'RESERVED' && deposit.expiresAt.getTime() > deps.clock.now().getTime();
    const simulated = waiting
      ? await simulateTransfer(deps, { siteId: deposit.siteId, apiKeyId: null, requestId: req.requestId }, deposit.id, {})
      : null;
    res.setHeader('Cache-Control', 'no-store');
    res.json({ simulated: simulated !== null, status: simulated?.intent.status ?? deposit.status });
  };
  return routerOf([{ operation: 'simulateDepositPageTransfer', handlers: [internalAuth(deps.config.internalToken), simulate] }]);
}
