import type { OperatorRole } from '@kasa/db';
import type { Actor } from '../shared/audit.repository.js';

/** The operator behind an ops API request, as the auth guard resolved it. */
export interface OperatorPrincipal {
  /** The operator's id, or `bootstrap` for OPS_BOOTSTRAP_TOKEN. */
  operatorId: string;
  role: OperatorRole;
  /** The token used; null for the bootstrap token, which is configuration, not a stored token. */
  tokenId: string | null;
  email: string | null;
}

export const BOOTSTRAP_OPERATOR_ID = 'bootstrap';

export function actorOf(principal: OperatorPrincipal): Actor {
  return { type: 'OPERATOR', id: principal.operatorId };
}

export function isAdmin(principal: OperatorPrincipal): boolean {
  return principal.role === 'ADMIN';
}
