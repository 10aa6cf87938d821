import type { RequestHandler } from 'express';
import { opsRouteList, pathParameterNames, type OpsOperationId } from '@kasa/contracts';
import type { PrismaClient } from '@kasa/db';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorPrincipal } from '../shared/operator-principal.js';
import { ensureHouseWide, ensureInScope, scopeOf } from '../shared/site-scope.js';
import { SiteScopeRepository } from './site-scope.repository.js';

/**
 * The functions that act on every site at once (the house's bank accounts, its statements, payouts, books and
 * operators): a scoped operator is refused 403 `site_scope`, whatever the record. Keyed by operation, each with the
 * words of its refusal.
 */
export const HOUSE_WIDE: Partial<Record<OpsOperationId, string>> = {
  createOperator: 'managing operators',
  listOperators: 'managing operators',
  disableOperator: 'managing operators',
  setOperatorScope: 'managing operators',
  createSite: 'creating a site',
  createReceivingAccount: 'the receiving bank accounts',
  updateReceivingAccount: 'the receiving bank accounts',
  listReceivingAccounts: 'the receiving bank accounts',
  importStatement: 'importing a bank statement',
  recordBankLines: 'the bank connector',
  recordBankTransfer: 'recording a bank transfer',
  getReconciliation: 'reconciliation',
  listReconciliations: 'reconciliation',
  checkJournal: 'the journal check',
  listSeals: 'the history seals',
  createPayoutBatch: 'payout batches',
  listPayoutBatches: 'payout batches',
  getPayoutBatch: 'payout batches',
  getPayoutBatchFile: 'payout batches',
  importScreeningList: 'sanctions screening',
  listScreeningLists: 'sanctions screening',
  listScreeningHits: 'sanctions screening',
  decideScreeningHit: 'sanctions screening',
  listRiskFlags: 'risk flags',
  riskReport: 'risk flags',
  getRiskFlag: 'risk flags',
  reviewRiskFlag: 'risk flags',
  createErasureRequest: 'retention and erasure',
  listErasureRequests: 'retention and erasure',
  getErasureRequest: 'retention and erasure',
  placeLegalHold: 'retention and erasure',
  releaseLegalHold: 'retention and erasure',
  listDestructionLog: 'retention and erasure',
};

/**
 * A kind of record that belongs to a site, as an ops path names it. Each kind registers its own in the composition root
 * (ledger-deps.ts, `siteOwnedRecords`), its repository answering the site; the guard knows no kind by name.
 */
export interface SiteOwnedRecord {
  /** The path parameter that names it (`intentId`). */
  param: string;
  /** The 404 detail of a missing id on its routes, answered as well for another site's record. */
  notFound: string;
  /** The site the record belongs to; null when there is no such record or it is the house's. Given well-formed ids only. */
  siteOf: (id: string) => Promise<string | null>;
}

/**
 * Path parameters of no site: an operator account and its tokens. The role rules guard them, and a scoped operator may
 * name only its own (another operator's account is operator management: house-wide).
 */
const OPERATOR_PARAMS = new Set(['operatorId', 'tokenId']);
const OTHER_OPERATOR = "managing another operator's account";

interface ScopedRoute {
  operationId: OpsOperationId;
  method: string;
  pattern: RegExp;
  params: string[];
  staticSegments: number;
}

/**
 * Every ops route with what its scope check needs. Throws at start-up for a route with a path parameter this guard
 * does not know (no kind registered it, no operator's) and that is not house-wide, so a new route cannot forget the
 * scope, nor a new kind its registration.
 */
function scopedRoutes(records: ReadonlyMap<string, SiteOwnedRecord>): ScopedRoute[] {
  return opsRouteList().flatMap((route) => {
    if (route.operationId === null || route.role === 'PUBLIC') return [];
    const params = pathParameterNames(route.path);
    const unknown = params.filter((name) => !records.has(name) && !OPERATOR_PARAMS.has(name));
    if (unknown.length > 0 && !HOUSE_WIDE[route.operationId]) {
      throw new Error(`Ops route ${route.operationId} has a path parameter the operator-scope guard does not know: ${unknown.join(', ')}`);
    }
    const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '([^/]+)');
    return [
      {
        operationId: route.operationId,
        method: route.method,
        pattern: new RegExp(`^${source}/?$`, 'i'),
        params,
        staticSegments: route.path.split('/').filter((part) => part && !part.startsWith(':')).length,
      },
    ];
  });
}

/** The registered kinds by path parameter; a parameter registered twice throws at start-up (which kind would it be?). */
function byParam(kinds: readonly SiteOwnedRecord[]): Map<string, SiteOwnedRecord> {
  const records = new Map<string, SiteOwnedRecord>();
  for (const kind of kinds) {
    if (records.has(kind.param)) throw new Error(`Two site-owned record kinds are named by the path parameter ${kind.param}`);
    records.set(kind.param, kind);
  }
  return records;
}

/** The operation a request is for, and its path parameters; the one with the most fixed segments when several match. */
function matchRoute(routes: ScopedRoute[], method: string, path: string) {
  let best: { route: ScopedRoute; values: string[] } | null = null;
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match && (!best || route.staticSegments > best.route.staticSegments)) best = { route, values: match.slice(1) };
  }
  return best;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Operator scopes on every ops route that names a record or is house-wide (docs/operations.md, Operator scopes); put
 * after the auth guard on `/ops/v1`. For a scoped operator: a house-wide function is 403 `site_scope`; a path id naming
 * a record of a site outside the scope is 404 with the route's own not-found detail, as for a missing id. Lists,
 * search and the dashboard filter by the scope in their queries instead.
 */
export function siteScopeGuard(deps: { db: PrismaClient; siteOwnedRecords: readonly SiteOwnedRecord[] }): RequestHandler {
  const records = byParam(deps.siteOwnedRecords);
  const routes = scopedRoutes(records);
  const scopes = new SiteScopeRepository(deps.db);

  /** Throws the 403 or 404 for a scoped operator's request, or resolves when it may go on. */
  async function enforce(principal: OperatorPrincipal, method: string, path: string): Promise<void> {
    const matched = matchRoute(routes, method === 'HEAD' ? 'GET' : method, path);
    if (!matched) return;
    const houseWide = HOUSE_WIDE[matched.route.operationId];
    if (houseWide) ensureHouseWide(principal, houseWide);
    const values = new Map(matched.route.params.map((name, index) => [name, decoded(matched.values[index] ?? '')]));
    const operatorId = values.get('operatorId');
    if (operatorId !== undefined && operatorId !== principal.operatorId) ensureHouseWide(principal, OTHER_OPERATOR);
    const tokenId = values.get('tokenId');
    // An unknown token is the route's own 404; another operator's is operator management.
    const tokenOwner = tokenId !== undefined && isUuid(tokenId) ? await scopes.tokenOwner(tokenId) : null;
    if (tokenOwner !== null && tokenOwner !== principal.operatorId) ensureHouseWide(principal, OTHER_OPERATOR);
    for (const [name, id] of values) {
      const kind = records.get(name);
      // A malformed id is the route's own 404; it never reaches the database.
      if (kind && isUuid(id)) ensureInScope(principal, await kind.siteOf(id), kind.notFound);
    }
  }

  return (req, res, next) => {
    const principal = res.locals.operator;
    if (!principal || scopeOf(principal) === null) {
      next();
      return;
    }
    enforce(principal, req.method, req.path).then(
      () => next(),
      (error: unknown) => next(error),
    );
  };
}
