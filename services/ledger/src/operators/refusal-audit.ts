import type { ErrorRequestHandler } from 'express';
import type { PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { writeAudit } from '../shared/audit.repository.js';
import { actorOf, type OperatorPrincipal } from '../shared/operator-principal.js';

/** What a refusal is recorded as: a 403 of any kind (role, site scope, step-up), and four-eyes' second approver refused. */
function refusalOf(error: unknown): 'ACCESS.REFUSED' | 'FOUR_EYES.REFUSED' | null {
  if (!(error instanceof AppError)) return null;
  if (error.status === 403) return 'ACCESS.REFUSED';
  if (error.reason === 'second_approver_required') return 'FOUR_EYES.REFUSED';
  return null;
}

/**
 * Writes an authenticated operator's refused ops request into the audit log before the problem is answered
 * (docs/compliance.md): a 403 (the role, the operator's sites, a step-up needed) or a four-eyes refusal (409
 * `second_approver_required`), with the method, the path, the problem's reason and its text. Refused logins are written by
 * the login itself (operators.use-case.ts); unauthenticated requests (401) are not written, so nobody without a token
 * fills the log. A failure to write it is logged and does not change the answer.
 */
export function auditRefusals(deps: { db: PrismaClient; logger: Logger }): ErrorRequestHandler {
  return (error, req, res, next) => {
    const action = refusalOf(error);
    const caller = (res.locals as { operator?: OperatorPrincipal }).operator;
    if (!action || !caller || !(error instanceof AppError)) {
      next(error);
      return;
    }
    writeAudit(deps.db, {
      actor: actorOf(caller),
      action,
      entityType: 'ops_request',
      entityId: req.requestId.slice(0, 64),
      metadata: {
        method: req.method,
        path: req.originalUrl.split('?')[0] ?? '',
        status: error.status,
        reason: error.reason ?? error.code,
        detail: error.message,
      },
    })
      .catch((failure: unknown) => deps.logger.warn('could not write a refused request into the audit log', { error: failure }))
      .finally(() => next(error));
  };
}
