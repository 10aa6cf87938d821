import { AppError } from '@kasa/http';
import type { ErasureRequest, Prisma } from '@kasa/db';
import { writeAudit } from '../shared/audit.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { actorOf } from '../shared/operator-principal.js';
import { ensureInScope } from '../shared/site-scope.js';
import { eraseUserRecords, type ErasureDeps, type WaitingRecord } from './erase-records.use-case.js';

/** KVKK art. 13 and the Regulation: a data subject's request is answered within 30 days of its receipt. */
export const ANSWER_WITHIN_MS = 30 * 24 * 60 * 60 * 1000;
/** The most held records a request keeps listed (the count is not bounded). */
const WAITING_LISTED = 500;

/**
 * Files a KVKK erasure request for a partner's end user (docs/compliance.md, Retention and erasure), then answers it at
 * once: what no hold covers is anonymised, the rest is listed with the date its hold ends. Filing and answering are two
 * transactions; a request filed and not yet answered (a ledger stopped between them) stays OPEN and the destruction job
 * answers it. The audit entry names the request only, never the user or the reason.
 */
export async function fileErasureRequest(
  deps: ErasureDeps,
  request: OperatorRequest,
  input: { siteId: string; externalUserId: string; reason: string },
): Promise<ErasureRequest> {
  ensureInScope(request.caller, input.siteId, 'No site with this id.');
  const actor = actorOf(request.caller);
  const filed = await deps.db.$transaction(async (tx) => {
    if (!(await deps.erasure.siteExists(tx, input.siteId))) {
      throw AppError.validation([{ field: 'siteId', message: 'names no site' }], 'No site with this id.');
    }
    const receivedAt = deps.clock.now();
    const row = await deps.erasure.createRequest(tx, {
      siteId: input.siteId,
      externalUserId: input.externalUserId,
      reason: input.reason,
      receivedAt,
      dueAt: new Date(receivedAt.getTime() + ANSWER_WITHIN_MS),
      filedBy: actor.id,
    });
    await writeAudit(tx, {
      actor,
      action: 'ERASURE.REQUESTED',
      entityType: 'erasure_request',
      entityId: row.id,
      siteId: row.siteId,
      metadata: { erasureRequestId: row.id, dueAt: row.dueAt.toISOString() },
    });
    return row;
  });
  return (await answerErasureRequest(deps, filed.id)) ?? filed;
}

/**
 * One pass of a request not completed: in one transaction, under its row lock, anonymises what is free now and records
 * what waits; ANSWERED while anything waits, COMPLETED when nothing does (audited when its state moves). Null: no such
 * request.
 */
export async function answerErasureRequest(deps: ErasureDeps, id: string): Promise<ErasureRequest | null> {
  return deps.db.$transaction(async (tx) => {
    const row = await deps.erasure.lockRequest(tx, id);
    if (!row || row.status === 'COMPLETED') return row;
    const pass = await eraseUserRecords(tx, deps, row, { cause: 'erasure_request', erasureRequestId: row.id, actor: row.filedBy });
    const now = deps.clock.now();
    const status = pass.waiting.length === 0 ? 'COMPLETED' : 'ANSWERED';
    const updated = await deps.erasure.updateRequest(tx, row.id, {
      status,
      answeredAt: row.answeredAt ?? now,
      completedAt: status === 'COMPLETED' ? now : null,
      waiting: waitingJson(pass.waiting),
    });
    if (status !== row.status) {
      await writeAudit(tx, {
        actor: { type: 'SYSTEM', id: 'erasure' },
        action: status === 'COMPLETED' ? 'ERASURE.COMPLETED' : 'ERASURE.ANSWERED',
        entityType: 'erasure_request',
        entityId: row.id,
        siteId: row.siteId,
        metadata: { erasureRequestId: row.id, anonymised: pass.anonymised, waiting: pass.waiting.length },
      });
    }
    return updated;
  });
}

function waitingJson(waiting: readonly WaitingRecord[]): Prisma.InputJsonValue {
  return { count: waiting.length, records: waiting.slice(0, WAITING_LISTED) };
}
