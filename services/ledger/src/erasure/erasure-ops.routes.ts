import express, { type Router } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { foundOr404 } from '../shared/http-guards.js';
import { opsListPage } from '../shared/ops-list.use-case.js';
import { opsOperation } from '../shared/ops-route.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { principalOf } from '../shared/operator-principal.js';
import { ensureInScope, scopeOf } from '../shared/site-scope.js';
import { fileErasureRequest } from './erasure-requests.use-case.js';
import { placeLegalHold, releaseLegalHold, type HoldTarget } from './legal-holds.use-case.js';
import { toDestructionLogEntry, toErasureRequest, toLegalHold } from './erasure.views.js';
import type { Clock } from '../shared/clock.js';
import type { CursorCodec } from '../shared/cursor.js';
import type { PrismaClient } from '@kasa/db';
import type { ErasureRepository } from './erasure.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type ErasureOpsRoutesDeps = Parameters<typeof fileErasureRequest>[0] & {
  clock: Clock;
  cursors: CursorCodec;
  db: PrismaClient;
  erasure: ErasureRepository;
};

/** Retention and erasure (`/ops/v1/erasure-requests`, `/legal-holds`, `/destruction-log`; docs/compliance.md). */
export function erasureOpsRoutes(deps: ErasureOpsRoutesDeps): Router {
  const router = express.Router();
  const view = async (row: Parameters<typeof toErasureRequest>[0]) =>
    toErasureRequest(row, await deps.erasure.destroyedFor(deps.db, row.id), deps.clock.now());

  opsOperation(
    router,
    'createErasureRequest',
  )(async ({ body }, req, res) => view(await fileErasureRequest(deps, operatorRequestOf(req, res), body)));

  opsOperation(
    router,
    'listErasureRequests',
  )(async (_input, req, res) => {
    const query = parseRequest('listErasureRequests', req.query, LIST_FILTERS_INVALID);
    const scope = scopeOf(principalOf(res.locals));
    const page = await opsListPage(
      deps.cursors,
      'ops-erasure-requests',
      query,
      (filters, window) =>
        deps.erasure.listRequests(
          deps.db,
          {
            ...(filters.siteId ? { siteId: filters.siteId } : {}),
            ...(filters.status ? { status: filters.status } : {}),
            ...(filters.overdue ? { overdueAt: deps.clock.now() } : {}),
          },
          window,
          scope,
        ),
      (row) => row,
    );
    return { ...page, data: await Promise.all(page.data.map(view)) };
  });

  opsOperation(
    router,
    'getErasureRequest',
  )(async ({ params }, _req, res) => {
    const row = await foundOr404(
      params.erasureRequestId,
      (key) => deps.erasure.findRequest(deps.db, key),
      'No erasure request with this id.',
    );
    ensureInScope(principalOf(res.locals), row.siteId, 'No erasure request with this id.');
    return view(row);
  });

  opsOperation(
    router,
    'placeLegalHold',
  )(async ({ body }, req, res) => {
    const forUser = body.siteId !== undefined || body.externalUserId !== undefined;
    const forRecord = body.recordType !== undefined || body.recordId !== undefined;
    let target: HoldTarget;
    if (forUser && !forRecord && body.siteId && body.externalUserId) target = { siteId: body.siteId, externalUserId: body.externalUserId };
    else if (forRecord && !forUser && body.recordType && body.recordId) target = { recordType: body.recordType, recordId: body.recordId };
    else {
      throw AppError.validation(
        [{ field: 'body', message: 'must name either siteId and externalUserId, or recordType and recordId' }],
        'A legal hold names a user of a site or one record.',
      );
    }
    return toLegalHold(await placeLegalHold(deps, operatorRequestOf(req, res), target, body.reason));
  });

  opsOperation(
    router,
    'releaseLegalHold',
  )(async ({ params }, req, res) => toLegalHold(await releaseLegalHold(deps, operatorRequestOf(req, res), params.legalHoldId)));

  opsOperation(
    router,
    'listDestructionLog',
  )(async (_input, req, res) => {
    const query = parseRequest('listDestructionLog', req.query, LIST_FILTERS_INVALID);
    const scope = scopeOf(principalOf(res.locals));
    return opsListPage(
      deps.cursors,
      'ops-destruction-log',
      query,
      (filters, window) =>
        deps.erasure.listLog(
          deps.db,
          {
            ...(filters.recordType ? { recordType: filters.recordType } : {}),
            ...(filters.erasureRequestId ? { erasureRequestId: filters.erasureRequestId } : {}),
          },
          window,
          scope,
        ),
      (row) => toDestructionLogEntry(row),
    );
  });

  return router;
}
