import { AppError } from '@kasa/http';
import type { OperatorPrincipal } from './operator-principal.js';

/**
 * Operator scopes (docs/operations.md, Operator scopes): an operator may be limited to some sites. The rules live
 * here; repositories take a {@link SiteScope} and filter in their query, so pages and cursors stay right.
 */

/** The site ids an operator may see (test twins included), or null for every site. */
export type SiteScope = readonly string[] | null;

/** The scope of a principal: null (every site) for an unscoped operator, the bootstrap token and the service itself. */
export function scopeOf(principal: OperatorPrincipal): SiteScope {
  return principal.siteIds && principal.siteIds.length > 0 ? principal.siteIds : null;
}

/** Whether the principal may see a record of this site; a record of no site (the house's) only when unscoped. */
export function inScope(principal: OperatorPrincipal, siteId: string | null): boolean {
  const scope = scopeOf(principal);
  return scope === null || (siteId !== null && scope.includes(siteId));
}

/** The Prisma condition of a site-owned table (`site_id`) for a scope: nothing for every site. Spread into a `where`. */
export function siteScopeWhere(scope: SiteScope): { AND?: Array<{ siteId: { in: string[] } }> } {
  return scope === null ? {} : { AND: [{ siteId: { in: [...scope] } }] };
}

/** The same for the sites table itself, whose own id is the site. */
export function siteRowScopeWhere(scope: SiteScope): { AND?: Array<{ id: { in: string[] } }> } {
  return scope === null ? {} : { AND: [{ id: { in: [...scope] } }] };
}

/** The same for bank transfers, a site's only through the deposit they are credited to: unassigned ones are the house's. */
export function transferScopeWhere(scope: SiteScope): { AND?: Array<{ intent: { siteId: { in: string[] } } }> } {
  return scope === null ? {} : { AND: [{ intent: { siteId: { in: [...scope] } } }] };
}

/** The same for returns to senders: by their deposit, else by their transfer's deposit. */
export function senderReturnScopeWhere(scope: SiteScope) {
  if (scope === null) return {};
  const siteId = { in: [...scope] };
  return { AND: [{ OR: [{ intent: { siteId } }, { intentId: null, bankTransfer: { intent: { siteId } } }] }] };
}

/** 404 with the record's own not-found detail when it is outside the principal's scope, as for a missing id. */
export function ensureInScope(principal: OperatorPrincipal, siteId: string | null, notFound: string): void {
  if (!inScope(principal, siteId)) throw new AppError('not_found', notFound);
}

/** 403 `site_scope` for a scoped operator calling a house-wide function (`what`: "Importing a statement"). */
export function ensureHouseWide(principal: OperatorPrincipal, what: string): void {
  if (scopeOf(principal) === null) return;
  throw new AppError('forbidden', `This operator is limited to some sites; ${what} is house-wide.`, undefined, undefined, 'site_scope');
}
