import { Prisma, type ActorType, type PrismaClient } from '@kasa/db';

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
  await db.auditLog.create({ data: auditRow(entry) });
}

/** {@link writeAudit} for many entries, in one statement, in the order given, all at the time of the call. */
export async function writeAudits(tx: Prisma.TransactionClient, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await tx.$executeRaw(auditInsert(entries));
}

/**
 * The INSERT of {@link writeAudits}, for a caller that writes it with other rows in one statement (a transition's
 * audit entry and event, shared/writes.repository.ts): the entries in the order given, all at the time of the call.
 */
export function auditInsert(entries: readonly AuditEntry[]): Prisma.Sql {
  const rows = entries.map(auditRow);
  return Prisma.sql`
    INSERT INTO audit_log (id, site_id, actor_type, actor_id, action, entity_type, entity_id, metadata, created_at)
    SELECT gen_random_uuid(), e.site_id, e.actor_type::"ActorType", e.actor_id, e.action, e.entity_type, e.entity_id, e.metadata,
      ${new Date().toISOString()}::timestamptz
    FROM unnest(${rows.map((r) => r.siteId)}::uuid[], ${rows.map((r) => r.actorType)}::text[], ${rows.map((r) => r.actorId)}::text[],
      ${rows.map((r) => r.action)}::text[], ${rows.map((r) => r.entityType)}::text[], ${rows.map((r) => r.entityId)}::text[],
      ${rows.map((r) => JSON.stringify(r.metadata))}::jsonb[])
      WITH ORDINALITY AS e(site_id, actor_type, actor_id, action, entity_type, entity_id, metadata, ord)
    ORDER BY e.ord`;
}

function auditRow(entry: AuditEntry) {
  return {
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    siteId: entry.siteId ?? null,
    metadata: entry.metadata ?? {},
  };
}
