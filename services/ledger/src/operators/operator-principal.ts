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
  /** The service itself, deciding by a rule an admin set (straight-through approval): audited as SYSTEM. */
  system?: true;
}

export const BOOTSTRAP_OPERATOR_ID = 'bootstrap';

/** The principal of the service's straight-through approvals (bank-transfers/straight-through.ts). */
export const STRAIGHT_THROUGH_PRINCIPAL: OperatorPrincipal = {
  operatorId: 'straight-through',
  role: 'ADMIN',
  tokenId: null,
  email: null,
  system: true,
};

export function actorOf(principal: OperatorPrincipal): Actor {
  return { type: principal.system ? 'SYSTEM' : 'OPERATOR', id: principal.operatorId };
}

export function isAdmin(principal: OperatorPrincipal): boolean {
  return principal.role === 'ADMIN';
}
