import express, { type Router } from 'express';
import type { BankTransferStatus } from '@kasa/db';
import { AppError, jsonBody } from '@kasa/http';
import { assignBankTransfer, recordBankTransfer } from '../bank-transfers/bank-transfer.use-case.js';
import type { LedgerDeps } from '../ledger-deps.js';
import { principalOf } from '../operators/operator-auth.js';
import { opsListPage, statusesOf } from '../review/ops-list.use-case.js';
import { toOpsBankTransfer } from '../review/views.js';
import { assertValid, isUuid } from './guards.js';

interface RecordBody {
  bankTxId: string;
  amount: string;
  currency?: string;
  senderName: string;
  senderIban: string;
  description: string;
  receivedAt: string;
}

/** Incoming money: record (matched by reference), the unmatched queue, and manual assignment. */
export function opsBankTransferRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  router.post('/bank-transfers', jsonBody, async (req, res) => {
    assertValid('recordBankTransfer', req.body);
    const body = req.body as RecordBody;
    const result = await recordBankTransfer(deps, principalOf(res.locals), {
      bankTxId: body.bankTxId,
      amount: BigInt(body.amount),
      currency: body.currency ?? 'TRY',
      senderName: body.senderName,
      senderIban: body.senderIban,
      description: body.description,
      receivedAt: new Date(body.receivedAt),
    });
    res
      .status(result.replayed ? 200 : 201)
      .set('Idempotent-Replayed', String(result.replayed))
      .json({ ...result.bankTransfer, intent: result.intent });
  });

  router.get('/bank-transfers', async (req, res) => {
    res.json(
      await opsListPage(
        deps.cursors,
        { name: 'ops-bank-transfers', schema: 'opsListBankTransfers' },
        req.query,
        (filters, window) => deps.bankTransfers.list(statusesOf<BankTransferStatus>(filters), window),
        toOpsBankTransfer,
      ),
    );
  });

  router.get('/bank-transfers/:bankTransferId', async (req, res) => {
    const { bankTransferId } = req.params as { bankTransferId: string };
    const row = isUuid(bankTransferId) ? await deps.bankTransfers.findById(bankTransferId) : null;
    if (!row) throw new AppError('not_found', 'No bank transfer with this id.');
    res.json(toOpsBankTransfer(row));
  });

  router.post('/bank-transfers/:bankTransferId/assign', jsonBody, async (req, res) => {
    assertValid('assignBankTransfer', req.body);
    const { intentId } = req.body as { intentId: string };
    const result = await assignBankTransfer(deps, principalOf(res.locals), req.params.bankTransferId as string, intentId);
    res.json({ ...result.bankTransfer, intent: result.intent });
  });

  return router;
}
