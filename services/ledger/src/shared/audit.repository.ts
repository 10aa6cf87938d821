import type { ActorType, Prisma, PrismaClient } from '@kasa/db';

export interface Actor {
  type: ActorType;
  id: string;
}

export interface AuditEntry {
  actor: Actor;
  action: string;
  entityType: string;
  entityId: string;
  siteId?: string | null;
  metadata?: Prisma.InputJsonValue;
}

type Db = Pick<PrismaClient, 'auditLog'> | Prisma.TransactionClient;

/** Writes audit entries; pass the transaction client so an entry commits with the change it records. */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.auditLog.create({
    data: {
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      siteId: entry.siteId ?? null,
      metadata: entry.metadata ?? {},
    },
  });
}
