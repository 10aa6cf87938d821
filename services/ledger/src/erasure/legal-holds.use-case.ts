import type { OpsInput } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { LegalHold } from '@kasa/db';
import { writeAudit } from '../shared/audit.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { actorOf } from '../shared/operator-principal.js';
import { ensureInScope } from '../shared/site-scope.js';
import type { ErasureDeps } from './erase-records.use-case.js';
import type { PersonalRecordKind } from './retention.js';

/** What an explicit hold may name: a user of a site, or one of these records (its dependants follow it). */
export type HoldTarget = { siteId: string; externalUserId: string } | { recordType: HeldRecordKind; recordId: string };
/**
 * The record types a hold may name: the contract's (`placeLegalHold`'s `recordType`), which must all be kinds of
 * personal record (retention.ts), or this is `never` and the hold does not compile.
 */
type ContractedRecordType = NonNullable<OpsInput<'placeLegalHold'>['body']['recordType']>;
export type HeldRecordKind = [ContractedRecordType] extends [PersonalRecordKind] ? ContractedRecordType : never;

/**
 * Places a legal hold (an ADMIN, with a reason): the records it names are kept past their retention, and an erasure leaves
 * them waiting, until an admin releases it. Audited with the hold's id only.
 */
export async function placeLegalHold(deps: ErasureDeps, request: OperatorRequest, target: HoldTarget, reason: string): Promise<LegalHold> {
  return deps.db.$transaction(async (tx) => {
    let siteId: string | null;
    if ('externalUserId' in target) {
      ensureInScope(request.caller, target.siteId, 'No site with this id.');
      if (!(await deps.erasure.siteExists(tx, target.siteId))) {
        throw AppError.validation([{ field: 'siteId', message: 'names no site' }], 'No site with this id.');
      }
      siteId = target.siteId;
    } else {
      const found = await deps.erasure.recordSite(tx, target.recordType, target.recordId);
      ensureInScope(request.caller, found.siteId, 'No record with this id.');
      if (!found.found)
        throw AppError.validation([{ field: 'recordId', message: 'names no record of this type' }], 'No record with this id.');
      siteId = found.siteId;
    }
    const actor = actorOf(request.caller);
    const hold = await deps.erasure.createHold(tx, {
      ...('externalUserId' in target
        ? { siteId: target.siteId, externalUserId: target.externalUserId }
        : { siteId, recordType: target.recordType, recordId: target.recordId }),
      reason,
      placedBy: actor.id,
      placedAt: deps.clock.now(),
    });
    await writeAudit(tx, {
      actor,
      action: 'LEGAL_HOLD.PLACED',
      entityType: 'legal_hold',
      entityId: hold.id,
      siteId,
      metadata: { legalHoldId: hold.id, ...('recordType' in target ? { recordType: target.recordType, recordId: target.recordId } : {}) },
    });
    return hold;
  });
}

/** Releases a hold in force (an ADMIN); 409 `invalid_transition` when it was released already. Audited. */
export async function releaseLegalHold(deps: ErasureDeps, request: OperatorRequest, holdId: string): Promise<LegalHold> {
  return deps.db.$transaction(async (tx) => {
    const existing = await deps.erasure.findHold(tx, holdId);
    if (!existing) throw new AppError('not_found', 'No legal hold with this id.');
    ensureInScope(request.caller, existing.siteId, 'No legal hold with this id.');
    const actor = actorOf(request.caller);
    const released = await deps.erasure.releaseHold(tx, holdId, actor.id, deps.clock.now());
    if (!released) throw AppError.conflict('invalid_transition', 'This legal hold was released already.');
    await writeAudit(tx, {
      actor,
      action: 'LEGAL_HOLD.RELEASED',
      entityType: 'legal_hold',
      entityId: holdId,
      siteId: released.siteId,
      metadata: { legalHoldId: holdId },
    });
    return released;
  });
}
