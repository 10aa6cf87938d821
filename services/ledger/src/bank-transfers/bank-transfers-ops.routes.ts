import express, { type Router } from 'express';
import { BANK_TRANSFER_STATUSES, parseRequest } from '@kasa/contracts';
import { jsonBody } from '@kasa/http';
import { foundOr404, isUuid } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { statusesOf } from '../shared/ops-list.use-case.js';
import {
  assignBankTransfer,
  closedIntentOf,
  recordBankTransfer,
  setBankTransferAside,
  topUpBankTransfer,
} from './bank-transfer.use-case.js';
import { toOpsBankTransfer, toOpsBankTransferDetail } from './bank-transfer.views.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { principalOf } from '../shared/operator-principal.js';
import type { OperatorPrincipal } from '../shared/operator-principal.js';
import { ensureInScope, scopeOf } from '../shared/site-scope.js';
import type { BankTransferRepository } from './bank-transfer.repository.js';
import { BankStatementRepository } from './bank-statement.repository.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import type { RecordKind } from '../review/record-kind.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type BankTransfersOpsRoutesDeps = Parameters<typeof recordBankTransfer>[0] &
  Parameters<typeof opsListRoute>[0] &
  Parameters<typeof closedIntentOf>[0] &
  Parameters<typeof topUpBankTransfer>[0] & {
    bankTransfers: BankTransferRepository;
    depositReview: DepositReviewRepository;
  };

/** Incoming money (`/ops/v1/bank-transfers`): record (matched by reference), the unmatched queue, and manual assignment. */
export function bankTransferOpsRoutes(deps: BankTransfersOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'recordBankTransfer', jsonBody, async (req, res) => {
    const body = parseRequest('recordBankTransfer', req.body);
    const result = await recordBankTransfer(deps, operatorRequestOf(req, res), {
      bankTxId: body.bankTxId,
      amount: BigInt(body.amount),
      currency: body.currency ?? 'TRY',
      senderName: body.senderName,
      senderIban: body.senderIban,
      description: body.description,
      receivedAt: new Date(body.receivedAt),
      receivingAccountId: body.receivingAccountId ?? null,
    });
    res
      .status(result.replayed ? 200 : 201)
      .set('Idempotent-Replayed', String(result.replayed))
      .json({ ...result.bankTransfer, intent: result.deposit });
  });

  opsRoute(
    router,
    'listBankTransfers',
    opsListRoute(deps, {
      schema: 'opsListBankTransfers',
      cursorList: 'ops-bank-transfers',
      fetch: (filters, window, scope, tx) =>
        deps.bankTransfers.list(
          statusesOf(filters, BANK_TRANSFER_STATUSES),
          window,
          filters.mode ? filters.mode === 'live' : undefined,
          scope,
          tx,
          filters.purpose,
        ),
      toItem: toOpsBankTransfer,
    }),
  );

  opsOperation(
    router,
    'getBankTransfer',
  )(async ({ params }) => {
    const row = await foundOr404(params.bankTransferId, (id) => deps.bankTransfers.findById(id), 'No bank transfer with this id.');
    return toOpsBankTransferDetail(row, await closedIntentOf(deps, row));
  });

  /** A scoped operator naming a deposit of another site: the 404 of a missing deposit, before anything moves. */
  const ensureDepositInScope = async (caller: OperatorPrincipal, intentId: string) => {
    if (scopeOf(caller) === null) return;
    const deposit = isUuid(intentId) ? await deps.depositReview.findDeposit(intentId) : null;
    ensureInScope(caller, deposit?.siteId ?? null, 'No deposit intent with this id.');
  };

  opsOperation(
    router,
    'assignBankTransfer',
  )(async ({ params, body: { intentId } }, req, res) => {
    await ensureDepositInScope(principalOf(res.locals), intentId);
    const result = await assignBankTransfer(deps, operatorRequestOf(req, res), params.bankTransferId, intentId);
    return { ...result.bankTransfer, intent: result.deposit };
  });

  opsOperation(
    router,
    'topUpBankTransfer',
  )(async ({ params, body: { intentId } }, req, res) => {
    await ensureDepositInScope(principalOf(res.locals), intentId);
    const result = await topUpBankTransfer(deps, operatorRequestOf(req, res), params.bankTransferId, intentId);
    return { ...result.bankTransfer, intent: result.deposit, eventId: result.eventId };
  });

  opsOperation(
    router,
    'setBankTransferAside',
  )(async ({ params, body: { reason } }, req, res) =>
    setBankTransferAside(deps, operatorRequestOf(req, res), params.bankTransferId, reason),
  );

  return router;
}

/** Bank transfers as a reviewed record kind (record-kinds.ts). */
export const bankTransferKind = {
  folder: 'bank-transfers',
  opsRoutes: bankTransferOpsRoutes,
  // The transfers' own repository is built in ledger-deps.ts, as deposits and returns read it too.
  repositories: ({ db }) => ({
    /** Imported bank statements and their debit lines. */
    statements: new BankStatementRepository(db),
  }),
  scope: { param: 'bankTransferId', notFound: 'No bank transfer with this id.', siteOf: (deps, id) => deps.bankTransfers.siteOfRecord(id) },
} satisfies RecordKind<BankTransfersOpsRoutesDeps>;
