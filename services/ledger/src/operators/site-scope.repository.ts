import type { PrismaClient } from '@kasa/db';
import { isUuid } from '../shared/http-guards.js';

/**
 * What the operator scope reads beyond each record kind's own repository (whose `siteOfRecord` answers the site of
 * one record, registered in ledger-deps.ts): a token's owner, for the guard (site-scope.guard.ts), and the sites of the
 * deposits a bulk request names.
 */
export class SiteScopeRepository {
  constructor(private readonly db: PrismaClient) {}

  /** The operator an operator token belongs to, or null when there is no such token. */
  async tokenOwner(tokenId: string): Promise<string | null> {
    return (await this.db.operatorToken.findUnique({ where: { id: tokenId }, select: { operatorId: true } }))?.operatorId ?? null;
  }

  /** The site of each existing deposit among `ids` (malformed ids are left out unread). */
  async depositSites(ids: readonly string[]): Promise<Map<string, string>> {
    const wellFormed = ids.filter(isUuid);
    if (wellFormed.length === 0) return new Map();
    const rows = await this.db.deposit.findMany({ where: { id: { in: wellFormed } }, select: { id: true, siteId: true } });
    return new Map(rows.map((row) => [row.id, row.siteId]));
  }
}
