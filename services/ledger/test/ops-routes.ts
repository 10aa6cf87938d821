/**
 * Every route the ledger serves under `/ops/v1`, with who may call it. ops-route-guards.test.ts checks each
 * row's guards over HTTP and fails when the app serves an ops route that has no row here, so a new route
 * cannot ship without its authorization being decided and tested.
 */

export interface OpsRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Express path under `/ops/v1`, parameters as `:name`. */
  path: string;
  /**
   * `ADMIN`: refused 403 to a reviewer. `ANY`: any authenticated operator (some refuse a reviewer acting on
   * another operator's account inside the use case). `PUBLIC`: no token needed (login, and the ops API's
   * OpenAPI document).
   */
  role: 'ADMIN' | 'ANY' | 'PUBLIC';
  /** The path names one site (`:siteId`). */
  siteScoped: boolean;
}

const route = (method: OpsRoute['method'], path: string, role: OpsRoute['role']): OpsRoute => ({
  method,
  path,
  role,
  siteScoped: path.includes(':siteId'),
});

export const OPS_ROUTES: readonly OpsRoute[] = [
  // app.ts
  route('GET', '/openapi.json', 'PUBLIC'),
  // operators/operators-ops.routes.ts
  route('POST', '/login', 'PUBLIC'),
  route('GET', '/me', 'ANY'),
  route('POST', '/logout', 'ANY'),
  route('POST', '/operators', 'ADMIN'),
  route('GET', '/operators', 'ADMIN'),
  route('POST', '/operators/:operatorId/disable', 'ADMIN'),
  route('POST', '/operators/:operatorId/tokens', 'ANY'),
  route('GET', '/operators/:operatorId/tokens', 'ANY'),
  route('DELETE', '/operator-tokens/:tokenId', 'ANY'),
  // sites/sites-ops.routes.ts
  route('POST', '/sites', 'ADMIN'),
  route('GET', '/sites', 'ANY'),
  route('GET', '/sites/:siteId', 'ANY'),
  route('PATCH', '/sites/:siteId', 'ADMIN'),
  route('GET', '/sites/:siteId/api-keys', 'ANY'),
  route('POST', '/sites/:siteId/api-keys', 'ADMIN'),
  route('DELETE', '/api-keys/:apiKeyId', 'ADMIN'),
  route('POST', '/receiving-accounts', 'ADMIN'),
  route('GET', '/receiving-accounts', 'ANY'),
  // deposits/deposits-ops.routes.ts
  route('GET', '/intents', 'ANY'),
  route('GET', '/intents/:intentId', 'ANY'),
  route('POST', '/intents/:intentId/approve', 'ANY'),
  route('POST', '/intents/:intentId/reject', 'ANY'),
  // withdrawals/withdrawals-ops.routes.ts
  route('GET', '/withdrawals', 'ANY'),
  route('GET', '/withdrawals/:withdrawalId', 'ANY'),
  route('POST', '/withdrawals/:withdrawalId/approve', 'ANY'),
  route('POST', '/withdrawals/:withdrawalId/reject', 'ANY'),
  route('POST', '/withdrawals/:withdrawalId/mark-sent', 'ANY'),
  route('POST', '/withdrawals/:withdrawalId/mark-returned', 'ANY'),
  // bank-transfers/bank-transfers-ops.routes.ts
  route('POST', '/bank-transfers', 'ANY'),
  route('GET', '/bank-transfers', 'ANY'),
  route('GET', '/bank-transfers/:bankTransferId', 'ANY'),
  route('POST', '/bank-transfers/:bankTransferId/assign', 'ANY'),
  route('POST', '/bank-transfers/:bankTransferId/set-aside', 'ANY'),
  // returns/sender-returns-ops.routes.ts
  route('POST', '/bank-transfers/:bankTransferId/return', 'ANY'),
  route('GET', '/sender-returns', 'ANY'),
  route('GET', '/sender-returns/:returnId', 'ANY'),
  route('POST', '/sender-returns/:returnId/approve', 'ANY'),
  route('POST', '/sender-returns/:returnId/reject', 'ANY'),
  route('POST', '/sender-returns/:returnId/mark-sent', 'ANY'),
  // journal/journal-ops.routes.ts
  route('GET', '/balances', 'ANY'),
  route('GET', '/sites/:siteId/balance', 'ANY'),
  route('GET', '/journal/check', 'ANY'),
  // operators/audit-ops.routes.ts
  route('GET', '/audit', 'ANY'),
  // search/search-ops.routes.ts
  route('GET', '/search', 'ANY'),
  // desk/desk-ops.routes.ts
  route('GET', '/dashboard', 'ANY'),
  route('GET', '/delivery-health', 'ANY'),
  // events/events-ops.routes.ts (mounted at /ops/v1/events)
  route('GET', '/events', 'ANY'),
  route('GET', '/events/:eventId', 'ANY'),
  route('POST', '/events/:eventId/replay', 'ANY'),
];

/** `METHOD /path`, the form routes are compared and named in. */
export const routeKey = (r: { method: string; path: string }): string => `${r.method} ${r.path}`;
