import express, { type RequestHandler, type Router } from 'express';
import type { DepositPageView, UserRejectionReason } from '@kasa/contracts';
import { AppError, pathParam } from '@kasa/http';
import { internalRouter } from '../shared/internal-route.js';
import { findDepositByTokenHash, recordUserConfirmation } from './deposit-page.repository.js';
import type { Clock } from '../shared/clock.js';
import type { KasaConfig } from '@kasa/config';
import type { PrismaClient } from '@kasa/db';
import type { Logger } from '@kasa/logger';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type DepositPageRoutesDeps = {
  clock: Clock;
  config: KasaConfig;
  db: PrismaClient;
  logger: Logger;
};

/** The page's token hash from the path; anything but 64 lower-case hex digits is an unknown link (404). */
export function tokenHashOf(req: express.Request): string {
  const tokenHash = String(pathParam(req, 'tokenHash'));
  if (!/^[0-9a-f]{64}$/.test(tokenHash)) throw new AppError('not_found', 'No deposit page for this link.');
  return tokenHash;
}

/**
 * The gateway's hosted page (`getDepositPage`) and the end user's confirmation (`confirmDepositPage`), by the page's
 * token hash. The token itself never reaches the ledger or its logs: the gateway sends its SHA-256, which is what the
 * ledger stores.
 */
export function depositPageRoutes(deps: DepositPageRoutesDeps): Router {
  // The end user's "I have sent the transfer": recorded once, while the intent waits for money.
  const confirm: RequestHandler = async (req, res) => {
    const tokenHash = tokenHashOf(req);
    if (!(await findDepositByTokenHash(deps.db, tokenHash))) throw new AppError('not_found', 'No deposit page for this link.');
    const recorded = await recordUserConfirmation(deps.db, tokenHash, deps.clock.now());
    if (recorded) deps.logger.info('deposit page confirmation', { requestId: req.requestId });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ recorded });
  };

  const page: RequestHandler = async (req, res) => {
    const tokenHash = tokenHashOf(req);
    const deposit = await findDepositByTokenHash(deps.db, tokenHash);
    if (!deposit) throw new AppError('not_found', 'No deposit page for this link.');
    const msLeft = deposit.expiresAt.getTime() - deps.clock.now().getTime();
    const payable = deposit.status === 'RESERVED' && msLeft > 0;
    const view: DepositPageView = {
      referenceNo: deposit.referenceNo,
      // An intent past its expiry is cancelled for the end user even if the sweeper has not run yet.
      status: deposit.status === 'RESERVED' && !payable ? 'AUTO_CANCELLED' : deposit.status,
      requestedAmount: deposit.requestedAmount.toString(),
      creditedAmount: deposit.status === 'APPROVED' ? deposit.amount.toString() : null,
      currency: deposit.currency,
      expiresAt: deposit.expiresAt.toISOString(),
      // The countdown runs from this, not from the browser's clock, which may be wrong.
      secondsLeft: payable ? Math.ceil(msLeft / 1000) : 0,
      siteName: deposit.site.name,
      livemode: deposit.site.livemode,
      bankAccount: payable
        ? {
            bankName: deposit.receivingAccount.bankName,
            holderName: deposit.receivingAccount.holderName,
            iban: deposit.receivingAccount.iban,
          }
        : null,
      // The deposit's own way back, else the site's.
      returnUrl: deposit.returnUrl ?? deposit.site.returnUrl,
      userConfirmedAt: deposit.userConfirmedAt?.toISOString() ?? null,
      rejectedUserReason: deposit.status === 'REJECTED' ? (deposit.rejectedUserReason as UserRejectionReason | null) : null,
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(view);
  };

  return internalRouter(deps.config.internalToken, [
    { operation: 'confirmDepositPage', handlers: [confirm] },
    { operation: 'getDepositPage', handlers: [page] },
  ]);
}
