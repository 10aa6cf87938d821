import type { RequestHandler } from 'express';
import { AppError } from '@kasa/http';
import type { OperatorRole } from '@kasa/db';
import type { Actor } from './audit.repository.js';

/** The operator behind an ops API request, as the auth guard resolved it. */
export interface OperatorPrincipal {
  /** The operator's id, or `bootstrap` for OPS_BOOTSTRAP_TOKEN. */
  operatorId: string;
  role: OperatorRole;
  /** The token used; null for the bootstrap token, which is configuration, not a stored token. */
  tokenId: string | null;
  email: string | null;
  /** The service itself, deciding by a rule an admin set (straight-through approval): audited as SYSTEM. */
  system?: true;
  /**
   * The operator's second factor: `ENROLLED`, `REQUIRED` (their role must have one and they have none: the token may
   * only enroll it), or `OFF`. Absent for the bootstrap token and the service's own principals.
   */
  secondFactor?: 'ENROLLED' | 'REQUIRED' | 'OFF';
  /** When a second-factor code was last entered on this token (step-up), or null. */
  secondFactorAt?: Date | null;
  /** A partner's test key driving its sandbox through the simulator (docs/sandbox.md): audited as that API key. */
  apiKeyId?: string;
  /**
   * The sites the operator may see and act on, test twins included (docs/operations.md, Operator scopes); null or
   * absent: every site. Never set for the bootstrap token or the service's own principals.
   */
  siteIds?: readonly string[] | null;
}

export const BOOTSTRAP_OPERATOR_ID = 'bootstrap';

/** The service confirming payouts from the bank's own lines (bank-transfers/payout-statement.ts): audited as SYSTEM `payout-statement`, rule `payout_statement`. */
export const PAYOUT_STATEMENT_PRINCIPAL: OperatorPrincipal = {
  operatorId: 'payout-statement',
  role: 'ADMIN',
  tokenId: null,
  email: null,
  system: true,
};

/** The principal of the service's straight-through approvals (bank-transfers/straight-through.ts). */
export const STRAIGHT_THROUGH_PRINCIPAL: OperatorPrincipal = {
  operatorId: 'straight-through',
  role: 'ADMIN',
  tokenId: null,
  email: null,
  system: true,
};

/**
 * The end user's hosted deposit page of a test deposit pressing "Simulate the transfer" (docs/hosted-page.md, Test
 * mode): no key and no operator asks, so the simulated money is audited as SYSTEM `hosted-page`. It only records a
 * transfer; any straight-through approval that follows is the rule's own principal.
 */
export const HOSTED_PAGE_PRINCIPAL: OperatorPrincipal = {
  operatorId: 'hosted-page',
  role: 'REVIEWER',
  tokenId: null,
  email: null,
  system: true,
};

/** The simulator acting for a sandbox's test key: allowed every step an operator or the bank takes there. */
export function sandboxPrincipal(apiKeyId: string): OperatorPrincipal {
  return { operatorId: `sandbox:${apiKeyId}`, role: 'ADMIN', tokenId: null, email: null, apiKeyId };
}

export function actorOf(principal: OperatorPrincipal): Actor {
  if (principal.apiKeyId) return { type: 'API_KEY', id: principal.apiKeyId };
  return { type: principal.system ? 'SYSTEM' : 'OPERATOR', id: principal.operatorId };
}

export function isAdmin(principal: OperatorPrincipal): boolean {
  return principal.role === 'ADMIN';
}

/** Lets the request through only for the given roles (403 otherwise); put after the auth guard. */
export function requireRole(...roles: Array<OperatorPrincipal['role']>): RequestHandler {
  return (_req, res, next) => {
    const operator = res.locals.operator;
    if (!operator) {
      next(new AppError('unauthorized', 'Send an operator token as Authorization: Bearer <token>.'));
      return;
    }
    next(roles.includes(operator.role) ? undefined : new AppError('forbidden', `This action needs the ${roles.join(' or ')} role.`));
  };
}

/** The authenticated operator of a request that passed {@link operatorAuth}. */
export function principalOf(locals: { operator?: OperatorPrincipal }): OperatorPrincipal {
  if (!locals.operator) throw new AppError('unauthorized', 'Send an operator token as Authorization: Bearer <token>.');
  return locals.operator;
}
