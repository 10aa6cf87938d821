import express, { type Router } from 'express';
import type { DepositStatus, WithdrawalStatus } from '@kasa/db';
import { AppError, jsonBody } from '@kasa/http';
import { balanceView } from '../journal/accounts.js';
import type { LedgerDeps } from '../ledger-deps.js';
import { principalOf } from '../operators/operator-auth.js';
import { approveIntent, rejectIntent } from '../review/intent-review.use-case.js';
import { opsListPage, reviewFilter, statusesOf } from '../review/ops-list.use-case.js';
import { toOpsBankTransfer, toOpsIntent, toOpsWithdrawal } from '../review/views.js';
import { approveWithdrawal, markWithdrawalReturned, markWithdrawalSent, rejectWithdrawal } from '../review/withdrawal-review.use-case.js';
import { assertValid, isUuid } from './guards.js';

/** Review queues and decisions for deposits and withdrawals; reviewers and admins alike. */
export function opsReviewRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  router.get('/intents', async (req, res) => {
    res.json(
      await opsListPage(
        deps.cursors,
        { name: 'ops-intents', schema: 'opsListIntents' },
        req.query,
        (filters, window) => deps.review.listIntents(reviewFilter(filters, statusesOf<DepositStatus>(filters)), window),
        toOpsIntent,
      ),
    );
  });

  router.get('/intents/:intentId', async (req, res) => {
    const { intentId } = req.params as { intentId: string };
    const row = isUuid(intentId) ? await deps.review.findIntent(intentId) : null;
    if (!row) throw new AppError('not_found', 'No deposit intent with this id.');
    const transfers = await deps.bankTransfers.listForIntent(intentId);
    res.json({ ...toOpsIntent(row), bankTransfers: transfers.map(toOpsBankTransfer) });
  });

  router.post('/intents/:intentId/approve', jsonBody, async (req, res) => {
    assertValid('approveIntent', req.body);
    const { amount } = req.body as { amount?: string };
    res.json(await approveIntent(deps, principalOf(res.locals), req.params.intentId as string, amount ? { amount: BigInt(amount) } : {}));
  });

  router.post('/intents/:intentId/reject', jsonBody, async (req, res) => {
    assertValid('reject', req.body);
    res.json(await rejectIntent(deps, principalOf(res.locals), req.params.intentId as string, (req.body as { reason: string }).reason));
  });

  router.get('/withdrawals', async (req, res) => {
    res.json(
      await opsListPage(
        deps.cursors,
        { name: 'ops-withdrawals', schema: 'opsListWithdrawals' },
        req.query,
        (filters, window) =>
          deps.review.listWithdrawals(reviewFilter(filters, statusesOf<WithdrawalStatus>(filters)), window),
        toOpsWithdrawal,
      ),
    );
  });

  router.get('/withdrawals/:withdrawalId', async (req, res) => {
    const { withdrawalId } = req.params as { withdrawalId: string };
    const row = isUuid(withdrawalId) ? await deps.review.findWithdrawal(withdrawalId) : null;
    if (!row) throw new AppError('not_found', 'No withdrawal with this id.');
    // The reviewer decides against the site's balance, so it comes with the record.
    res.json({ ...toOpsWithdrawal(row), siteBalance: balanceView(row.siteId, await deps.journal.balancesOf(row.siteId)) });
  });

  router.post('/withdrawals/:withdrawalId/approve', jsonBody, async (req, res) => {
    assertValid('approveWithdrawal', req.body);
    res.json(await approveWithdrawal(deps, principalOf(res.locals), req.params.withdrawalId as string));
  });

  router.post('/withdrawals/:withdrawalId/reject', jsonBody, async (req, res) => {
    assertValid('reject', req.body);
    res.json(await rejectWithdrawal(deps, principalOf(res.locals), req.params.withdrawalId as string, (req.body as { reason: string }).reason));
  });

  router.post('/withdrawals/:withdrawalId/mark-sent', jsonBody, async (req, res) => {
    assertValid('markSent', req.body);
    res.json(await markWithdrawalSent(deps, principalOf(res.locals), req.params.withdrawalId as string, (req.body as { bankTxId?: string }).bankTxId));
  });

  router.post('/withdrawals/:withdrawalId/mark-returned', jsonBody, async (req, res) => {
    assertValid('markReturned', req.body);
    res.json(await markWithdrawalReturned(deps, principalOf(res.locals), req.params.withdrawalId as string, (req.body as { reason: string }).reason));
  });

  return router;
}
