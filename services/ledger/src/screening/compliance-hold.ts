import type { Prisma } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { ScreeningRepository, SubjectType } from './screening.repository.js';

/**
 * Refuses to move a record a screening hit holds (OPEN: awaiting its decision; CONFIRMED: frozen), 409
 * `compliance_hold`. Call it on the locked record inside the transaction that would move it. The answer goes to
 * operators only (the ops API); the partner's API and webhooks never mention screening.
 */
export async function assertNotHeld(
  deps: { screenings: Pick<ScreeningRepository, 'holdOf'> },
  tx: Prisma.TransactionClient,
  subjectType: SubjectType,
  subjectId: string,
): Promise<void> {
  const hold = await deps.screenings.holdOf(tx, subjectId);
  if (!hold) return;
  const why =
    hold.status === 'CONFIRMED'
      ? `its ${subjectType === 'deposit' ? 'sender' : 'beneficiary'} was confirmed as a listed person or entity: it stays frozen (it may still be rejected)`
      : 'a sanctions screening hit awaits its compliance decision (two admins: POST /ops/v1/screening/hits/:hitId/decision)';
  throw AppError.conflict('compliance_hold', `This ${subjectType} is on compliance hold (hit ${hold.id}): ${why}. Nothing was changed.`);
}
