import type { ResponseOf } from '@kasa/contracts';
import type { RiskFlag } from '@kasa/db';
import { RISK_RULES } from './risk.repository.js';

/** The system actor of a raised flag: the risk rules, not a person. */
export const RISK_ACTOR = 'risk-rules';

const STATUSES = ['OPEN', 'CLOSED'] as const;
const SUBJECT_TYPES = ['deposit', 'bank_transfer'] as const;
const OUTCOMES = ['no_action', 'reported'] as const;

/**
 * A text column's value as one of those the ops API documents for it. Only the risk rules and the review write these
 * columns, and only those values, so any other is a broken row and fails loudly rather than being shown.
 */
function documented<const V extends string>(values: readonly V[], value: string, column: string): V {
  const known = values.find((candidate) => candidate === value);
  if (known === undefined) throw new Error(`a risk flag whose ${column} is ${JSON.stringify(value)}`);
  return known;
}

/** A flag as the ops API answers it (`RiskFlag`); `overdue` as of `now`. Never part of any partner answer. */
export function toRiskFlag(flag: RiskFlag, now: Date): ResponseOf<'RiskFlag'> {
  return {
    id: flag.id,
    siteId: flag.siteId,
    rule: documented(RISK_RULES, flag.rule, 'rule'),
    subjectType: documented(SUBJECT_TYPES, flag.subjectType, 'subjectType'),
    subjectId: flag.subjectId,
    externalUserId: flag.externalUserId,
    facts: flag.facts as Record<string, string | number | null>,
    status: documented(STATUSES, flag.status, 'status'),
    detectedAt: flag.detectedAt.toISOString(),
    dueAt: flag.dueAt.toISOString(),
    overdue: flag.status === 'OPEN' && flag.dueAt.getTime() < now.getTime(),
    outcome: flag.outcome === null ? null : documented(OUTCOMES, flag.outcome, 'outcome'),
    note: flag.note,
    reviewedBy: flag.reviewedAt ? { operatorId: flag.reviewedByOperatorId, email: flag.reviewedByEmail } : null,
    reviewedAt: flag.reviewedAt?.toISOString() ?? null,
  };
}
