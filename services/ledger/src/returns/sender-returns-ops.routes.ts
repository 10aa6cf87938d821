import express, { type Router } from 'express';
import { SENDER_RETURN_STATUSES } from '@kasa/contracts';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { statusesOf } from '../shared/ops-list.use-case.js';
import { operatorRequestOf } from '../shared/request-context.js';
import {
  approveSenderReturn,
  markSenderReturnSent,
  rejectSenderReturn,
  requestSenderReturn,
  withReturnApprovals,
} from './sender-return.use-case.js';
import { toOpsSenderReturn } from './sender-return.views.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { SenderReturnRepository } from './sender-return.repository.js';
import type { RecordKind } from '../review/record-kind.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SenderReturnsOpsRoutesDeps = Parameters<typeof requestSenderReturn>[0] &
  Parameters<typeof opsListRoute>[0] & {
    senderReturns: SenderReturnRepository;
  };

/**
 * Returns to senders (`/ops/v1`): asked for from a transfer, then reviewed and paid out like a withdrawal
 * (docs/operations.md, Returns to senders). Any operator, as for the other money decisions.
 */
export function senderReturnOpsRoutes(deps: SenderReturnsOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(
    router,
    'requestSenderReturn',
  )(async ({ params, body }, req, res) => requestSenderReturn(deps, operatorRequestOf(req, res), params.bankTransferId, body.reason));

  opsRoute(
    router,
    'listSenderReturns',
    opsListRoute(deps, {
      schema: 'opsListSenderReturns',
      cursorList: 'ops-sender-returns',
      // Live returns unless `mode=test`: the sandboxes' never join the operators' queue.
      fetch: async (filters, window, scope, tx) =>
        withReturnApprovals(
          deps,
          await deps.senderReturns.list(
            statusesOf(filters, SENDER_RETURN_STATUSES),
            window,
            scope,
            filters.mode === 'test' ? 'test' : 'live',
            tx,
          ),
          tx,
        ),
      toItem: (row) => toOpsSenderReturn(row, row.shownApprovals),
    }),
  );

  opsOperation(
    router,
    'getSenderReturn',
  )(async ({ params }) => {
    const row = await foundOr404(params.returnId, (id) => deps.senderReturns.find(id), 'No return with this id.');
    const [shown] = await withReturnApprovals(deps, [row]);
    return toOpsSenderReturn(row, shown?.shownApprovals);
  });

  opsOperation(
    router,
    'approveSenderReturn',
  )(async ({ params }, req, res) => approveSenderReturn(deps, operatorRequestOf(req, res), params.returnId));
  opsOperation(
    router,
    'rejectSenderReturn',
  )(async ({ params, body }, req, res) => rejectSenderReturn(deps, operatorRequestOf(req, res), params.returnId, body.reason));
  opsOperation(
    router,
    'markSenderReturnSent',
  )(async ({ params, body }, req, res) => markSenderReturnSent(deps, operatorRequestOf(req, res), params.returnId, body?.bankTxId));

  return router;
}

/** Returns to senders as a reviewed record kind (record-kinds.ts). */
export const senderReturnKind = {
  folder: 'returns',
  opsRoutes: senderReturnOpsRoutes,
  repositories: ({ db }) => ({
    /** Returns to senders and their house journal (money no site owns). */
    senderReturns: new SenderReturnRepository(db),
  }),
  scope: { param: 'returnId', notFound: 'No return with this id.', siteOf: (deps, id) => deps.senderReturns.siteOfRecord(id) },
} satisfies RecordKind<SenderReturnsOpsRoutesDeps>;
