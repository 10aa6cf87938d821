import type { Prisma, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { decideApproval, type FourEyesDeps } from '../review/four-eyes.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import { recordedDecisions, type HitDecision, type RecordedDecision } from './hit-decisions.js';
import type { ScreeningRepository } from './screening.repository.js';
import { toScreeningHit } from './screening.views.js';

export interface DecideHitDeps extends Pick<FourEyesDeps, 'clock' | 'config' | 'operators'> {
  db: PrismaClient;
  logger: Logger;
  screenings: ScreeningRepository;
}

/** What each settled decision does to the hit, and its audit action. */
const SETTLED = {
  clear: { status: 'CLEARED', audit: 'SCREENING.CLEARED', log: 'screening hit cleared' },
  confirm: { status: 'CONFIRMED', audit: 'SCREENING.CONFIRMED', log: 'screening hit confirmed' },
} as const satisfies Record<HitDecision, { status: string; audit: string; log: string }>;

/**
 * An admin's compliance decision on a screening hit, always four-eyes (docs/compliance.md): the first decision is
 * recorded and the hit stays OPEN; a second admin's same decision settles it, CLEARED (the hold lifts, the payout
 * continues) or CONFIRMED (frozen for good; it may still be rejected). Two different people by the project's four-eyes
 * rules (review/four-eyes.ts, decided on the locked hit): not the same operator, not two accounts one of which created
 * or last changed the other, never the bootstrap token; each refusal is 409 `second_approver_required`, audited
 * FOUR_EYES.REFUSED. A second admin deciding the other way replaces the standing first decision (theirs is now the
 * first, and a third person settles it): disagreement is never settled by one of the two.
 */
export async function decideScreeningHit(
  deps: DecideHitDeps,
  request: OperatorRequest,
  hitId: string,
  input: { decision: HitDecision; note: string },
) {
  if (!isUuid(hitId)) throw new AppError('not_found', 'No screening hit with this id.');
  const note = input.note.trim();
  const actor = actorOf(request.caller);
  const outcome = await inTransaction(deps, async (tx) => {
    const hit = await deps.screenings.lockHit(tx, hitId);
    if (!hit) throw new AppError('not_found', 'No screening hit with this id.');
    if (hit.status !== 'OPEN') {
      throw AppError.conflict('invalid_transition', `The hit was decided already (${hit.status}); nothing was changed.`);
    }
    const recorded = recordedDecisions(hit.decisions);
    const agreeing = recorded.filter((given) => given.decision === input.decision);
    const approval = await decideApproval(deps, tx, request.caller, agreeing, 2, 'screening hit');
    const mine: RecordedDecision = { ...(approval.approvals.at(-1) as RecordedDecision), decision: input.decision, note };
    const decisions = [...(approval.approvals.slice(0, -1) as RecordedDecision[]), mine];
    const settled = approval.final ? SETTLED[input.decision] : null;
    const now = deps.clock.now();
    const updated = await deps.screenings.decide(tx, hitId, {
      decisions: decisions as unknown as Prisma.InputJsonValue,
      ...(settled ? { status: settled.status, decidedAt: now } : {}),
    });
    const replaced = recorded.filter((given) => given.decision !== input.decision);
    await writeAudit(tx, {
      actor,
      action: settled?.audit ?? 'SCREENING.FIRST_DECISION',
      entityType: 'screening_hit',
      entityId: hitId,
      // Compliance is house-wide: the entry names the site in its metadata, not as the site's own history.
      metadata: {
        decision: input.decision,
        note,
        subjectType: hit.subjectType,
        subjectId: hit.subjectId,
        siteId: hit.siteId,
        entrySource: hit.entrySource,
        entryId: hit.entryId,
        entryReference: hit.entryReference,
        score: String((hit.scoreBp ?? 0) / 10_000),
        decidedBy: decisions.map((given) => given.email ?? given.operatorId).join(', '),
        ...(replaced.length > 0
          ? { replacedDecision: replaced.map((given) => `${given.decision} by ${given.email ?? given.operatorId}`).join(', ') }
          : {}),
      },
    });
    return { updated, settled };
  });
  deps.logger.info(outcome.settled?.log ?? 'screening hit first decision', {
    requestId: request.requestId,
    hitId,
    subjectType: outcome.updated.subjectType,
    subjectId: outcome.updated.subjectId,
    decision: input.decision,
    operatorId: request.caller.operatorId,
  });
  const row = await deps.screenings.findHit(hitId);
  if (!row) throw new Error('a decided screening hit vanished');
  return toScreeningHit(row);
}
