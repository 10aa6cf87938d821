import express, { type RequestHandler, type Router } from 'express';
import { OPS_ROUTES, parseRequest } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { decideScreeningHit } from './decide-hit.use-case.js';
import { importScreeningList } from './import-list.use-case.js';
import { listScreeningHits, listScreeningLists } from './screening-queries.use-case.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type ScreeningOpsRoutesDeps = Parameters<typeof importScreeningList>[0] &
  Parameters<typeof listScreeningLists>[0] &
  Parameters<typeof listScreeningHits>[0] &
  Parameters<typeof decideScreeningHit>[0];

const { maxBytes, types } = OPS_ROUTES.importScreeningList.rawBody;
const DECISION_BODY_BYTES = 16 * 1024;

const rawParser = express.raw({ type: () => true, limit: maxBytes });

/** The list file as bytes, up to the route's limit; 415 for another type, 413 above the limit, 400 when empty. */
const listBody: RequestHandler = (req, res, next) => {
  const type = req.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (!type || !(types as readonly string[]).includes(type)) {
    next(new AppError('unsupported_media_type', `Send the list file with Content-Type ${types.join(', ')}.`));
    return;
  }
  rawParser(req, res, (error?: unknown) => {
    if (error && typeof error === 'object' && (error as { type?: unknown }).type === 'entity.too.large') {
      next(new AppError('payload_too_large', `The list file is larger than ${maxBytes / (1024 * 1024)} MiB.`));
      return;
    }
    if (error) {
      next(error);
      return;
    }
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
      next(AppError.validation([{ field: '(body)', message: 'must be a list file' }], 'The request has no list file.'));
      return;
    }
    next();
  });
};

/**
 * Sanctions and asset-freeze screening (`/ops/v1/screening`): importing list versions, and the hits that hold
 * withdrawals and deposits for a compliance decision. Admins only, house-wide (operators/site-scope.guard.ts).
 */
export function screeningOpsRoutes(deps: ScreeningOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'importScreeningList', listBody, async (req, res) => {
    const query = parseRequest('importScreeningList', req.query);
    const bytes = req.body as Buffer; // listBody left a non-empty Buffer, or answered already
    const result = await importScreeningList(deps, operatorRequestOf(req, res), { bytes, source: query.source, list: query.list });
    res.status(result.created ? 201 : 200).json(result);
  });

  opsOperation(router, 'listScreeningLists')(async () => listScreeningLists(deps));

  opsOperation(
    router,
    'listScreeningHits',
  )(async (_input, req) => listScreeningHits(deps, parseRequest('listScreeningHits', req.query).status));

  opsOperation(router, 'decideScreeningHit', { maxBodyBytes: DECISION_BODY_BYTES })(async ({ params, body }, req, res) =>
    decideScreeningHit(deps, operatorRequestOf(req, res), params.hitId, body),
  );

  return router;
}
