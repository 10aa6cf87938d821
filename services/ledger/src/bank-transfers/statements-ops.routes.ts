import express, { type RequestHandler, type Router } from 'express';
import { OPS_ROUTES, parseRequest } from '@kasa/contracts';
import { AppError, jsonBodyOf, pathParam } from '@kasa/http';
import { isStatementContentType, UPLOAD_CONTENT_TYPES_TEXT } from '@kasa/statements';
import { operatorRequestOf } from '../shared/request-context.js';
import { opsRoute } from '../shared/ops-route.js';
import { importStatement } from './import-statement.use-case.js';
import { recordBankLines } from './record-bank-lines.use-case.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type StatementsOpsRoutesDeps = Parameters<typeof importStatement>[0];

/** A bank connector's batch: up to 500 lines, far above the JSON routes' 64 KiB. */
const LINES_MAX_BYTES = 1024 * 1024;

const { maxBytes } = OPS_ROUTES.importStatement.rawBody;
const MAX_MIB = maxBytes / (1024 * 1024);

const rawParser = express.raw({ type: () => true, limit: maxBytes });

/**
 * The statement file as bytes, up to the route's own limit (16 MiB: a 100,000-line CSV; far above the JSON routes' 64 KiB: a month
 * of a busy account's camt.053 is a few MiB); 415 for a type that is no statement, 413 above the limit.
 */
const statementBody: RequestHandler = (req, res, next) => {
  const type = req.get('content-type');
  // The types the formats' registry names (docs/statements.md, Which format), and generic ones the body settles.
  if (!type || !isStatementContentType(type)) {
    next(new AppError('unsupported_media_type', `Send the statement with Content-Type ${UPLOAD_CONTENT_TYPES_TEXT}.`));
    return;
  }
  rawParser(req, res, (error?: unknown) => {
    if (error && typeof error === 'object' && (error as { type?: unknown }).type === 'entity.too.large') {
      next(new AppError('payload_too_large', `The statement file is larger than ${MAX_MIB} MiB; split it by period.`));
      return;
    }
    if (error) {
      next(error);
      return;
    }
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) {
      next(AppError.validation([{ field: '(body)', message: 'must be a statement file' }], 'The request has no statement file.'));
      return;
    }
    next();
  });
};

/**
 * Statement import (`/ops/v1/receiving-accounts/:accountId/statements`): a receiving account's bank statement file;
 * and a bank connector's lines (`.../lines`), the same path for lines that come one by one rather than in a file.
 */
export function statementOpsRoutes(deps: StatementsOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'importStatement', statementBody, async (req, res) => {
    const bytes = req.body as Buffer; // statementBody left a non-empty Buffer, or answered already
    const result = await importStatement(deps, operatorRequestOf(req, res), pathParam(req, 'accountId'), {
      bytes,
      contentType: req.get('content-type') ?? '',
    });
    res.status(result.created > 0 ? 201 : 200).json(result);
  });

  opsRoute(router, 'recordBankLines', jsonBodyOf(LINES_MAX_BYTES), async (req, res) => {
    const input = parseRequest('recordBankLines', req.body);
    const result = await recordBankLines(deps, operatorRequestOf(req, res), pathParam(req, 'accountId'), input);
    res.status(result.created > 0 ? 201 : 200).json(result);
  });

  return router;
}
