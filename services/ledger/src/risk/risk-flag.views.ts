import type { RiskFlag } from '@kasa/db';

/** The system actor of a raised flag: the risk rules, not a person. */
export const RISK_ACTOR = 'risk-rules';

/** A flag as the ops API answers it (`RiskFlag`); `overdue` as of `now`. Never part of any partner answer. */
export function toRiskFlag(flag: RiskFlag, now: Date) {
  return {
    id: flag.id,
    siteId: flag.siteId,
    rule: flag.rule,
    subjectType: flag.subjectType,
    subjectId: flag.subjectId,
    externalUserId: flag.externalUserId,
    facts: flag.facts as Record<string, string | number | null>,
    status: flag.status,
    detectedAt: flag.detectedAt.toISOString(),
    dueAt: flag.dueAt.toISOString(),
    overdue: flag.status === 'OPEN' && flag.dueAt.getTime() < now.getTime(),
    outcome: flag.outcome,
    note: flag.note,
    reviewedBy: flag.reviewedAt ? { operatorId: flag.reviewedByOperatorId, email: flag.reviewedByEmail } : null,
    reviewedAt: flag.reviewedAt?.toISOString() ?? null,
  };
}
