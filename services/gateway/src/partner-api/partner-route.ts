import type { RequestHandler, Router } from 'express';
import { PARTNER_ROUTES, type PartnerOperationId } from '@kasa/contracts';

/**
 * Registers one partner operation's handlers at the method and path the route table (@kasa/contracts,
 * partner-routes.ts) gives it, so a route's path is declared only there and the document cannot describe
 * another one. The router is mounted at the table's base path, after authentication.
 */
export function partnerRoute(router: Router, operationId: PartnerOperationId, ...handlers: RequestHandler[]): void {
  const { method, path } = PARTNER_ROUTES[operationId];
  const verb = ({ GET: 'get', POST: 'post', PUT: 'put' } as const)[method];
  router[verb](path, handlers);
}
