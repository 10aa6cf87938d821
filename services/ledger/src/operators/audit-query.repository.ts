import type { AuditLog, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { siteScopeWhere, type SiteScope } from './site-scope.js';

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

  /** A page of entries; a scoped operator's only its sites' (entries of no site are the house's). */
  list(filter: AuditFilter, window: ListWindow, scope: SiteScope): Promise<AuditLog[]> {
    const where = {
      ...(filter.siteId ? { siteId: filter.siteId } : {}),
      ...(filter.actorId ? { actorId: filter.actorId } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.entityType ? { entityType: filter.entityType } : {}),
      ...(filter.entityId ? { entityId: filter.entityId } : {}),
      ...siteScopeWhere(scope),
    };
    return this.db.auditLog.findMany(keysetPage(where, window));
  }
}
