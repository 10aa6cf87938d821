import { recordedApprovals, type Approval } from '../review/four-eyes.js';

export type HitDecision = 'clear' | 'confirm';

/** One admin's decision on a hit as the hit keeps it: a four-eyes approval with what was decided and why. */
export interface RecordedDecision extends Approval {
  decision: HitDecision;
  note: string;
}

/** The decisions recorded on a hit (JSON), oldest first; anything unreadable counts as none. */
export function recordedDecisions(json: unknown): RecordedDecision[] {
  return recordedApprovals(json).flatMap((approval) => {
    const { decision, note } = approval as Partial<RecordedDecision>;
    if (decision !== 'clear' && decision !== 'confirm') return [];
    return [
      {
        operatorId: approval.operatorId,
        email: approval.email ?? null,
        at: approval.at,
        decision,
        note: typeof note === 'string' ? note : '',
      },
    ];
  });
}
