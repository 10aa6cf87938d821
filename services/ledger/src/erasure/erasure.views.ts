import type { ResponseOf } from '@kasa/contracts';
import type { DestructionLog, ErasureRequest, LegalHold } from '@kasa/db';
import type { DestructionCause } from './retention.js';

type Waiting = ResponseOf<'ErasureRequest'>['waiting'];
type WaitingListed = Waiting['records'][number];

const CAUSES = ['erasure_request', 'retention_expired'] as const satisfies readonly DestructionCause[];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A held record as erasure-requests.use-case.ts lists it (a WaitingRecord): held for its retention, or by a legal hold. */
function isWaitingListed(value: unknown): value is WaitingListed {
  if (!isObject(value) || typeof value.recordType !== 'string' || typeof value.recordId !== 'string') return false;
  if (value.hold === 'retention') return typeof value.holdEndsAt === 'string';
  return value.hold === 'legal_hold' && value.holdEndsAt === null && typeof value.legalHoldId === 'string';
}

/**
 * What a request's last pass left waiting: the `{count, records}` erasure-requests.use-case.ts writes, or nothing before
 * its first pass (the column's default `[]`). Only that use case writes the column, so anything else is a broken row and
 * fails loudly rather than being shown.
 */
function waitingOf(row: ErasureRequest): Waiting {
  const stored = row.waiting;
  if (Array.isArray(stored) && stored.length === 0) return { count: 0, records: [] };
  if (!isObject(stored) || typeof stored.count !== 'number' || !Array.isArray(stored.records)) {
    throw new Error(`erasure request ${row.id} whose waiting records are not as its passes write them`);
  }
  const records = stored.records.map((record) => {
    if (!isWaitingListed(record)) throw new Error(`erasure request ${row.id} with a waiting record not as its passes write it`);
    return record;
  });
  return { count: stored.count, records };
}

/** A destruction-log row's cause (a text column) as one of the two the ledger writes; another fails loudly. */
function causeOf(row: DestructionLog): DestructionCause {
  const cause = CAUSES.find((known) => known === row.cause);
  if (cause === undefined) throw new Error(`a destruction-log row whose cause is ${JSON.stringify(row.cause)}`);
  return cause;
}

/** An erasure request as the ops API shows it; `now` decides whether it is overdue. */
export function toErasureRequest(
  row: ErasureRequest,
  anonymised: Array<{ recordType: string; count: number }>,
  now: Date,
): ResponseOf<'ErasureRequest'> {
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
    waiting: waitingOf(row),
  };
}

export function toLegalHold(row: LegalHold): ResponseOf<'LegalHold'> {
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

export function toDestructionLogEntry(row: DestructionLog): ResponseOf<'DestructionLogEntry'> {
  return {
    destructionId: row.id,
    recordType: row.recordType,
    recordId: row.recordId,
    siteId: row.siteId,
    fields: row.fields,
    cause: causeOf(row),
    erasureRequestId: row.erasureRequestId,
    actor: row.actor,
    destroyedAt: row.destroyedAt.toISOString(),
  };
}
