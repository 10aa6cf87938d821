import type { RequestHandler, Router } from 'express';
import { OPS_ROUTES, type OpsOperationId } from '@kasa/contracts';
import { requireRole } from './operator-principal.js';

const GUARDS: Record<(typeof OPS_ROUTES)[OpsOperationId]['role'], RequestHandler[]> = {
  PUBLIC: [],
  // Any operator: refuses (401) a request no operator was resolved for, should the router be mounted before the auth guard.
  REVIEWER: [requireRole('ADMIN', 'REVIEWER')],
  ADMIN: [requireRole('ADMIN')],
  // A bank connector's machine account, or an admin; a connector is refused (403) by every other route's guard above.
  CONNECTOR_OR_ADMIN: [requireRole('CONNECTOR', 'ADMIN')],
};

/**
 * Registers one ops operation's handlers at the method and path the route table (@kasa/contracts, ops-routes.ts)
 * gives it, behind the table's role, so a route's path and role are declared only there.
 */
export function opsRoute(router: Router, operationId: OpsOperationId, ...handlers: RequestHandler[]): void {
  const { method, path, role } = OPS_ROUTES[operationId];
  const verb = ({ GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'delete' } as const)[method];
  router[verb](path, [...GUARDS[role], ...handlers]);
}
