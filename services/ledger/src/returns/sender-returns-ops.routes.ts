import express, { type Router } from 'express';
import { parseRequest, SENDER_RETURN_STATUSES } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListRoute } from '../shared/ops-list.routes.js';
import { statusesOf } from '../shared/ops-list.use-case.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { approveSenderReturn, markSenderReturnSent, rejectSenderReturn, requestSenderReturn } from './sender-return.use-case.js';
import { toOpsSenderReturn } from './sender-return.views.js';

/**
 * Returns to senders (`/ops/v1`): asked for from a transfer, then reviewed and paid out like a withdrawal
 * (docs/operations.md, Returns to senders). Any operator, as for the other money decisions.
 */
export function senderReturnOpsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  router.post('/bank-transfers/:bankTransferId/return', jsonBody, async (req, res) => {
    const { reason } = parseRequest('reject', req.body);
    res.status(201).json(await requestSenderReturn(deps, operatorRequestOf(req, res), pathParam(req, 'bankTransferId'), reason));
  });

  router.get(
    '/sender-returns',
    opsListRoute(deps.cursors, {
      schema: 'opsListSenderReturns',
      cursorList: 'ops-sender-returns',
      fetch: (filters, window) => deps.senderReturns.list(statusesOf(filters, SENDER_RETURN_STATUSES), window),
      toItem: toOpsSenderReturn,
    }),
  );

  router.get('/sender-returns/:returnId', async (req, res) => {
    const row = await foundOr404(pathParam(req, 'returnId'), (id) => deps.senderReturns.find(id), 'No return with this id.');
    res.json(toOpsSenderReturn(row));
  });

  router.post('/sender-returns/:returnId/approve', jsonBody, async (req, res) => {
    res.json(await approveSenderReturn(deps, operatorRequestOf(req, res), pathParam(req, 'returnId')));
  });

  router.post('/sender-returns/:returnId/reject', jsonBody, async (req, res) => {
    const { reason } = parseRequest('reject', req.body);
    res.json(await rejectSenderReturn(deps, operatorRequestOf(req, res), pathParam(req, 'returnId'), reason));
  });

  router.post('/sender-returns/:returnId/mark-sent', jsonBody, async (req, res) => {
    const { bankTxId } = parseRequest('markSent', req.body);
    res.json(await markSenderReturnSent(deps, operatorRequestOf(req, res), pathParam(req, 'returnId'), bankTxId));
  });

  return router;
}
