import type { DestructionLog, ErasureRequest, LegalHold } from '@kasa/db';

/** An erasure request as the ops API shows it; `now` decides whether it is overdue. */
export function toErasureRequest(row: ErasureRequest, anonymised: Array<{ recordType: string; count: number }>, now: Date) {
  const waiting = (row.waiting ?? {}) as { count?: number; records?: unknown[] };
  return {
    erasureRequestId: row.id,
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    reason: row.reason,
    status: row.status,
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    overdue: row.status === 'OPEN' && row.dueAt < now,
    filedBy: row.filedBy,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    anonymised,
    waiting: { count: waiting.count ?? 0, records: waiting.records ?? [] },
  };
}

export function toLegalHold(row: LegalHold) {
  return {
    legalHoldId: row.id,
    siteId: row.siteId,
    externalUserId: row.externalUserId,
    recordType: row.recordType,
    recordId: row.recordId,
    reason: row.reason,
    placedBy: row.placedBy,
    placedAt: row.placedAt.toISOString(),
    releasedBy: row.releasedBy,
    releasedAt: row.releasedAt?.toISOString() ?? null,
  };
}

export function toDestructionLogEntry(row: DestructionLog) {
  return {
    destructionId: row.id,
    recordType: row.recordType,
    recordId: row.recordId,
    siteId: row.siteId,
    fields: row.fields,
    cause: row.cause,
    erasureRequestId: row.erasureRequestId,
    actor: row.actor,
    destroyedAt: row.destroyedAt.toISOString(),
  };
}
