import type { RiskSettings } from '@kasa/config';
import type { PrismaClient } from '@kasa/db';
import { writeAudits } from '../shared/audit.repository.js';
import { inTransaction } from '../review/transition.js';
import { RISK_ACTOR } from './risk-flag.views.js';
import { findRisks, payoutReferencesIn } from './risk-rules.js';
import type { NewRiskFlag, RiskRepository } from './risk.repository.js';

export interface EvaluateRiskDeps {
  db: PrismaClient;
  risk: RiskRepository;
  clock: { now(): Date };
  config: { risk: RiskSettings };
}

/** Lines evaluated per transaction: one short transaction per page, whatever the backlog. */
const PAGE = 200;
const DAY_MS = 86_400_000;

/**
 * One page of the risk worker (docs/compliance.md, Risk flags and reports): locks the lines still to evaluate (`FOR
 * UPDATE SKIP LOCKED`: two ledgers never take the same line), reads what the rules need, raises each rule's flag once
 * per subject with its `RISK.FLAGGED` audit entry, and marks the lines evaluated, all in one transaction: a crash
 * leaves the page to evaluate again, never half done. A sandbox's lines are marked and never flagged. Returns how many
 * lines it took and how many flags it raised.
 */
export async function evaluateRiskPage(deps: EvaluateRiskDeps): Promise<{ lines: number; flagged: number }> {
  const settings = deps.config.risk;
  return inTransaction(deps, async (tx) => {
    const lines = await deps.risk.lockUnchecked(tx, PAGE, {
      nearLimitHours: 24,
      nearLimitShare: settings.nearLimitPercent / 100,
      velocityMinutes: settings.velocityWindowMinutes,
      resentDays: settings.resentDays,
    });
    if (lines.length === 0) return { lines: 0, flagged: 0 };
    const references = new Map(lines.map((line) => [line.id, payoutReferencesIn(line.description)]));
    const named = await deps.risk.withdrawalsNamed(tx, [...references.values()].flat());
    const dueAt = new Date(deps.clock.now().getTime() + settings.reviewDays * DAY_MS);
    const flags: NewRiskFlag[] = lines.flatMap((line) => {
      const names = new Set(references.get(line.id));
      return findRisks(
        line,
        named.filter((payout) => names.has(payout.reference)),
        settings,
      ).map((finding) => ({ ...finding, bankTransferId: line.id, externalUserId: line.externalUserId, dueAt }));
    });
    const raised = await deps.risk.raise(tx, flags);
    await writeAudits(
      tx,
      raised.map((flag) => ({
        actor: { type: 'SYSTEM', id: RISK_ACTOR },
        action: 'RISK.FLAGGED',
        entityType: 'risk_flag',
        entityId: flag.id,
        // Compliance is house-wide: the entry names the site in its metadata, never in the site's own history.
        metadata: {
          rule: flag.rule,
          subjectType: flag.subjectType,
          subjectId: flag.subjectId,
          siteId: flag.siteId,
          dueAt: flag.dueAt.toISOString(),
        },
      })),
    );
    await deps.risk.markChecked(
      tx,
      lines.map((line) => line.id),
    );
    return { lines: lines.length, flagged: raised.length };
  });
}
