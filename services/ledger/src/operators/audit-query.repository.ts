import type { AuditLog, Prisma, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { siteScopeWhere, type SiteScope } from '../shared/site-scope.js';

export interface AuditFilter {
  siteId?: string;
  actorId?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
}

/** Reads the audit log (writes go through repositories/audit.repository.ts inside each change's transaction). */
export class AuditQueryRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * A page of entries; a scoped operator's only its sites' (entries of no site are the house's). `db`: the list's
   * transaction (its statement timeout).
   */
  list(
    filter: AuditFilter,
    window: ListWindow,
    scope: SiteScope,
    db: PrismaClient | Prisma.TransactionClient = this.db,
  ): Promise<AuditLog[]> {
    const where = {
      ...(filter.siteId ? { siteId: filter.siteId } : {}),
      ...(filter.actorId ? { actorId: filter.actorId } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.entityType ? { entityType: filter.entityType } : {}),
      ...(filter.entityId ? { entityId: filter.entityId } : {}),
      ...siteScopeWhere(scope),
    };
    return db.auditLog.findMany(keysetPage(where, window));
  }
}
