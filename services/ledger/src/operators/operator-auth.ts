import type { RequestHandler } from 'express';
import { AppError } from '@kasa/http';
import type { Clock } from '../shared/clock.js';
import { constantTimeEqual } from '../shared/secrets.js';
import { BOOTSTRAP_OPERATOR_ID, type OperatorPrincipal } from '../shared/operator-principal.js';
import { hashOperatorToken } from './operator-token.js';
import type { OperatorRepository } from './operator.repository.js';

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

/**
 * Authenticates an ops API request: OPS_BOOTSTRAP_TOKEN is the first admin (actor id `bootstrap`), any
 * other bearer must be an unrevoked, unexpired operator token of an enabled account. Sets
 * `res.locals.operator` and `res.locals.actor`; anything else is 401.
 */
export function operatorAuth(deps: {
  config: { opsBootstrapToken: string; operator2faRequired: readonly OperatorPrincipal['role'][] };
  operators: OperatorRepository;
  clock: Clock;
}): RequestHandler {
  return (req, res, next) => {
    const token = bearer(req.get('authorization'));
    if (!token) {
      next(new AppError('unauthorized', 'Send an operator token as Authorization: Bearer <token>.'));
      return;
    }
    if (constantTimeEqual(token, deps.config.opsBootstrapToken)) {
      const principal: OperatorPrincipal = { operatorId: BOOTSTRAP_OPERATOR_ID, role: 'ADMIN', tokenId: null, email: null };
      res.locals.operator = principal;
      res.locals.actor = { type: 'OPERATOR', id: BOOTSTRAP_OPERATOR_ID };
      next();
      return;
    }
    deps.operators.findOwner(hashOperatorToken(token), deps.clock.now()).then(
      (owner) => {
        if (!owner) {
          next(new AppError('unauthorized', 'The operator token is not valid, expired or revoked.'));
          return;
        }
        const secondFactor = owner.secondFactorEnrolled
          ? 'ENROLLED'
          : deps.config.operator2faRequired.includes(owner.role)
            ? 'REQUIRED'
            : 'OFF';
        const principal: OperatorPrincipal = {
          operatorId: owner.operatorId,
          role: owner.role,
          tokenId: owner.tokenId,
          email: owner.email,
          secondFactor,
          secondFactorAt: owner.secondFactorAt,
          siteIds: owner.siteIds,
        };
        res.locals.operator = principal;
        res.locals.actor = { type: 'OPERATOR', id: owner.operatorId };
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
