/**
 * The internal API (`/internal/v1` on the ledger, called by the gateway only, with the internal token) as one
 * table, as the partner and ops APIs are: each operation's method and path, declared once. The gateway calls the
 * ledger by operation id (its LedgerClient builds the path from here), the ledger serves each path, and
 * services/gateway/test/internal-routes.test.ts holds both sides to this table.
 */
import type { PathParameters } from './openapi-support.js';
import { PARTNER_ROUTES } from './partner-routes.js';

export const INTERNAL_PREFIX = '/internal/v1';

export type InternalMethod = 'GET' | 'POST' | 'PUT';

/** One operation of the internal API. */
export interface InternalRouteSpec {
  method: InternalMethod;
  /** Under {@link INTERNAL_PREFIX}, parameters as `:name` (Express's form). */
  path: string;
}

/** A sandbox step: the partner's path under the site (docs/sandbox.md), a POST. */
const sandboxStep = <P extends string>(partnerPath: P) => ({ method: 'POST', path: `/sites/:siteId${partnerPath}` }) as const;

export const INTERNAL_ROUTES = {
  /** Which site an API key (by its hash) belongs to, and whether it is live (auth/authenticate.ts). */
  resolveApiKey: { method: 'POST', path: '/auth/resolve' },

  createDeposit: { method: 'POST', path: '/sites/:siteId/deposits' },
  getIntent: { method: 'GET', path: '/sites/:siteId/intents/:intentId' },
  listIntents: { method: 'GET', path: '/sites/:siteId/intents' },
  createWithdrawal: { method: 'POST', path: '/sites/:siteId/withdrawals' },
  getWithdrawal: { method: 'GET', path: '/sites/:siteId/withdrawals/:withdrawalId' },
  listWithdrawals: { method: 'GET', path: '/sites/:siteId/withdrawals' },

  getBalance: { method: 'GET', path: '/sites/:siteId/balance' },
  listBalanceTransactions: { method: 'GET', path: '/sites/:siteId/balance/transactions' },
  getBalanceStatementKeys: { method: 'GET', path: '/sites/:siteId/balance/statements/keys' },
  getBalanceStatement: { method: 'GET', path: '/sites/:siteId/balance/statements/:date' },

  getWebhookConfig: { method: 'GET', path: '/sites/:siteId/webhook-config' },
  putWebhookConfig: { method: 'PUT', path: '/sites/:siteId/webhook-config' },
  testWebhook: { method: 'POST', path: '/sites/:siteId/test-webhook' },

  listEvents: { method: 'GET', path: '/sites/:siteId/events' },
  recoverEvents: { method: 'POST', path: '/sites/:siteId/events/recover' },
  getEvent: { method: 'GET', path: '/sites/:siteId/events/:eventId' },
  replayEvent: { method: 'POST', path: '/sites/:siteId/events/:eventId/replay' },

  /** The hosted deposit page's view, by the SHA-256 of its token (the token itself never leaves the gateway). */
  getDepositPage: { method: 'GET', path: '/deposit-pages/:tokenHash' },
  confirmDepositPage: { method: 'POST', path: '/deposit-pages/:tokenHash/confirmation' },
  simulateDepositPageTransfer: { method: 'POST', path: '/deposit-pages/:tokenHash/simulated-transfer' },

  simulateTransfer: sandboxStep(PARTNER_ROUTES.simulateTransfer.path),
  simulateDepositApproval: sandboxStep(PARTNER_ROUTES.simulateDepositApproval.path),
  simulateDepositRejection: sandboxStep(PARTNER_ROUTES.simulateDepositRejection.path),
  simulateDepositExpiry: sandboxStep(PARTNER_ROUTES.simulateDepositExpiry.path),
  simulateWithdrawalApproval: sandboxStep(PARTNER_ROUTES.simulateWithdrawalApproval.path),
  simulateWithdrawalRejection: sandboxStep(PARTNER_ROUTES.simulateWithdrawalRejection.path),
  simulateWithdrawalSent: sandboxStep(PARTNER_ROUTES.simulateWithdrawalSent.path),
  simulateWithdrawalReturn: sandboxStep(PARTNER_ROUTES.simulateWithdrawalReturn.path),
} as const satisfies Record<string, InternalRouteSpec>;

export type InternalOperationId = keyof typeof INTERNAL_ROUTES;

/** The values an operation's path needs, one per `:name` (the type system refuses a missing or unknown one). */
export type InternalParams<Op extends InternalOperationId> = { [Name in PathParameters<(typeof INTERNAL_ROUTES)[Op]['path']>]: string };

/**
 * The full path of one call: each parameter URI-encoded into its place, and the query string (already encoded)
 * when there is one.
 */
export function internalPath<Op extends InternalOperationId>(operation: Op, params: InternalParams<Op>, query = ''): string {
  const values = params as Record<string, string>;
  const path = INTERNAL_ROUTES[operation].path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`internal operation ${operation} needs :${name}`);
    return encodeURIComponent(value);
  });
  return `${INTERNAL_PREFIX}${path}${query ? `?${query}` : ''}`;
}
