import express, { type Router } from 'express';
import type { DepositPageView, UserRejectionReason } from '@kasa/contracts';
import { AppError, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth } from '../shared/http-guards.js';
import { findIntentByTokenHash, recordUserConfirmation } from './deposit-page.repository.js';

/**
 * `GET /internal/v1/deposit-pages/:tokenHash` for the gateway's hosted page. The token itself never
 * reaches the ledger or its logs: the gateway sends its SHA-256, which is what the ledger stores.
 */
export function depositPageRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));
  const tokenHashOf = (req: express.Request): string => {
    const tokenHash = String(pathParam(req, 'tokenHash'));
    if (!/^[0-9a-f]{64}$/.test(tokenHash)) throw new AppError('not_found', 'No deposit page for this link.');
    return tokenHash;
  };
  // The end user's "I have sent the transfer": recorded once, while the intent waits for money.
  router.post('/:tokenHash/confirmation', async (req, res) => {
    const tokenHash = tokenHashOf(req);
    if (!(await findIntentByTokenHash(deps.db, tokenHash))) throw new AppError('not_found', 'No deposit page for this link.');
    const recorded = await recordUserConfirmation(deps.db, tokenHash, deps.clock.now());
    if (recorded) deps.logger.info('deposit page confirmation', { requestId: req.requestId });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ recorded });
  });
  router.get('/:tokenHash', async (req, res) => {
    const tokenHash = tokenHashOf(req);
    const intent = await findIntentByTokenHash(deps.db, tokenHash);
    if (!intent) throw new AppError('not_found', 'No deposit page for this link.');
    const msLeft = intent.expiresAt.getTime() - deps.clock.now().getTime();
    const payable = intent.status === 'RESERVED' && msLeft > 0;
    const view: DepositPageView = {
      referenceNo: intent.referenceNo,
      // An intent past its expiry is cancelled for the end user even if the sweeper has not run yet.
      status: intent.status === 'RESERVED' && !payable ? 'AUTO_CANCELLED' : intent.status,
      amount: intent.requestedAmount.toString(),
      creditedAmount: intent.status === 'APPROVED' ? intent.amount.toString() : null,
      currency: intent.currency,
      expiresAt: intent.expiresAt.toISOString(),
      // The countdown runs from this, not from the browser's clock, which may be wrong.
      secondsLeft: payable ? Math.ceil(msLeft / 1000) : 0,
      siteName: intent.site.name,
      bankAccount: payable
        ? { bankName: intent.receivingAccount.bankName, holderName: intent.receivingAccount.holderName, iban: intent.receivingAccount.iban }
        : null,
      // The deposit's own way back, else the site's.
      returnUrl: intent.returnUrl ?? intent.site.returnUrl,
      userConfirmedAt: intent.userConfirmedAt?.toISOString() ?? null,
      rejectedUserReason: intent.status === 'REJECTED' ? (intent.rejectedUserReason as UserRejectionReason | null) : null,
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(view);
  });
  return router;
}
