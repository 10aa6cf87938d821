import type { PrismaClient } from '@kasa/db';
import { isUuid } from '../shared/http-guards.js';

/** The kinds of record an ops path names by id that belong to a site. */
export type SiteOwnedRecord = 'site' | 'apiKey' | 'deposit' | 'withdrawal' | 'bankTransfer' | 'senderReturn' | 'event';

/**
 * The site a record belongs to, for the operator-scope guard (site-scope.guard.ts): null when there is no such
 * record, or when it is the house's (a bank transfer credited to no deposit, a return of such a transfer).
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

  async siteOf(kind: SiteOwnedRecord, id: string): Promise<string | null> {
    switch (kind) {
      case 'site':
        return (await this.db.site.findUnique({ where: { id }, select: { id: true } }))?.id ?? null;
      case 'apiKey':
        return (await this.db.apiKey.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
      case 'deposit':
        return (await this.db.deposit.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
      case 'withdrawal':
        return (await this.db.withdrawal.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
      case 'event':
        return (await this.db.outboxEvent.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
      case 'bankTransfer': {
        const transfer = await this.db.bankTransfer.findUnique({ where: { id }, select: { intent: { select: { siteId: true } } } });
        return transfer?.intent?.siteId ?? null;
      }
      case 'senderReturn': {
        const row = await this.db.senderReturn.findUnique({
          where: { id },
          select: { intent: { select: { siteId: true } }, bankTransfer: { select: { intent: { select: { siteId: true } } } } },
        });
        return row?.intent?.siteId ?? row?.bankTransfer.intent?.siteId ?? null;
      }
    }
  }
}
