import type { AuditLog, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';

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

  list(filter: AuditFilter, window: ListWindow): Promise<AuditLog[]> {
    const where = {
      ...(filter.siteId ? { siteId: filter.siteId } : {}),
      ...(filter.actorId ? { actorId: filter.actorId } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.entityType ? { entityType: filter.entityType } : {}),
      ...(filter.entityId ? { entityId: filter.entityId } : {}),
    };
    return this.db.auditLog.findMany(keysetPage(where, window));
  }
}
