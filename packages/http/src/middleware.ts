import { randomUUID } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from '@kasa/logger';
import { RequestValidationError, type ErrorCode, type ErrorReason, type FieldError } from '@kasa/contracts';
import { AppError, problemOf } from './app-error.js';
import { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './dependency-errors.js';
import { routeOf } from './route-template.js';
import { requestScope } from './request-scope.js';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Request {
      requestId: string;
    }
  }
}

/** Keeps a well-formed incoming X-Request-Id, otherwise makes one; echoes it on every response. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  req.requestId = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', req.requestId);
  requestScope.run({ requestId: req.requestId }, next);
};

export function sendProblem(res: Response, code: ErrorCode, detail: string, errors?: FieldError[], reason?: ErrorReason): void {
  const body = problemOf(code, detail, res.req.requestId, errors, reason);
  // Every 503 tells the client when to come back (docs/api.md, Errors).
  if (code === 'service_unavailable' && !res.hasHeader('Retry-After'))
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}

export const notFound: RequestHandler = (_req, res) => {
  sendProblem(res, 'not_found', 'No such endpoint.');
};

interface BodyParserError {
  type?: string;
  status?: number;
}

/**
 * Turns anything thrown into problem details. Known errors keep their code; body-parser failures map to
 * 400/413/415; anything else is logged with the request id and answered 500 without internals.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof RequestValidationError) {
      sendProblem(res, 'validation_failed', error.message, error.errors);
      return;
    }
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
      sendProblem(res, error.code, error.detail, error.errors, error.reason);
      return;
    }
    const parserError = error as BodyParserError;
    switch (parserError.type) {
      case 'entity.too.large':
        sendProblem(res, 'payload_too_large', 'The request body is larger than 64 KiB.');
        return;
      case 'entity.parse.failed':
        sendProblem(res, 'validation_failed', 'The request body is not valid JSON.', [{ field: '(body)', message: 'must be valid JSON' }]);
        return;
      case 'charset.unsupported':
      case 'encoding.unsupported':
        sendProblem(res, 'unsupported_media_type', 'The request body must be UTF-8 JSON.');
        return;
      default:
        break;
    }
    if (parserError.status === 400) {
      sendProblem(res, 'validation_failed', 'The request could not be read.');
      return;
    }
    if (isDependencyUnavailable(error)) {
      // PostgreSQL or Redis is unreachable: the request may be retried as is, and nothing was changed
      // (a transaction that lost its connection is rolled back by the server).
      logger.warn('dependency unavailable', { requestId: req.requestId, method: req.method, route: routeOf(req), error });
      sendProblem(res, 'service_unavailable', 'The service is temporarily unavailable; retry with the same Idempotency-Key.');
      return;
    }
    logger.error('unhandled error', { requestId: req.requestId, method: req.method, route: routeOf(req), error });
    sendProblem(res, 'internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key.');
  };
}
