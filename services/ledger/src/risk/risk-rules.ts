import type { RiskSettings } from '@kasa/config';
import { maskIban } from '@kasa/logger';
import { normaliseName, scoreTokens, tokenSimilarity } from '@kasa/screening';
import { isPayoutReference } from '../payouts/payout-batch.repository.js';
import type { NamedWithdrawal, NewRiskFlag, RiskRule, UncheckedLine } from './risk.repository.js';

/** What one rule found about a line: the flag's subject and facts (the worker adds the site, line and deadline). */
type Finding = Pick<NewRiskFlag, 'rule' | 'subjectType' | 'subjectId' | 'facts'> & { siteId: string | null };

/** How alike two people's names are, 0 to 1, whatever the order, case, Turkish letters or initials (@kasa/screening). */
export function nameSimilarity(a: string, b: string): number {
  const left = normaliseName(a).tokens;
  const right = normaliseName(b).tokens;
  if (left.length === 0 || right.length === 0) return 1;
  return scoreTokens(left, right, (i, j) => tokenSimilarity(left[i] as string, right[j] as string)).score;
}

/** The payout references a line's text names (a withdrawal's `KW...` reference). */
export function payoutReferencesIn(description: string): string[] {
  return description
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => isPayoutReference(word));
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const masked = (iban: string) => (iban ? maskIban(iban) : null);

/**
 * The rules (docs/compliance.md, Risk flags and reports), each a pure reading of the facts the repository gathered for a
 * live line: what a compliance officer must look at. A finding never holds money; it is reviewed.
 */
export function findRisks(line: UncheckedLine, named: readonly NamedWithdrawal[], settings: RiskSettings): Finding[] {
  if (!line.livemode) return [];
  const findings: Finding[] = [];
  const onDeposit = (rule: RiskRule, facts: Finding['facts']) => {
    if (line.intentId) findings.push({ rule, subjectType: 'deposit', subjectId: line.intentId, siteId: line.siteId, facts });
  };

  if (line.intentId) {
    // The user's name: the partner's label of the user, else the sender of the user's first credited line.
    const userName = line.externalUserLabel?.trim() || line.firstSenderName;
    if (userName && line.senderName.trim()) {
      const score = nameSimilarity(line.senderName, userName);
      if (score * 100 < settings.nameMatchMinPercent) {
        onDeposit('name_mismatch', { senderName: line.senderName, userName, score: round2(score) });
      }
    }
    if (line.nearCount >= settings.nearLimitCount && line.siteMaxAmount !== null) {
      onDeposit('just_under_limit', {
        count: line.nearCount,
        total: line.nearTotal.toString(),
        limit: line.siteMaxAmount.toString(),
        windowHours: 24,
      });
    }
    if (line.velocityCount >= settings.velocityCount) {
      onDeposit('velocity', {
        count: line.velocityCount,
        total: line.velocityTotal.toString(),
        windowMinutes: settings.velocityWindowMinutes,
      });
    }
  }

  if (line.returnId && line.returnSentAt) {
    findings.push({
      rule: 'returned_and_resent',
      subjectType: 'bank_transfer',
      subjectId: line.id,
      siteId: line.siteId ?? line.returnSiteId,
      facts: {
        senderIban: masked(line.senderIban),
        returnId: line.returnId,
        returnedAt: line.returnSentAt.toISOString(),
        amount: line.amount.toString(),
      },
    });
  }

  // A credit naming one of our payouts, from an account that is not the payout's beneficiary's: never a return (the
  // statement import counts it as incoming money), worth a look. The payout's own line back is PAYOUT_RETURNED.
  if (line.status !== 'PAYOUT_RETURNED') {
    const stranger = named.find((payout) => payout.livemode && payout.creditorIban !== line.senderIban);
    if (stranger) {
      findings.push({
        rule: 'stranger_credit',
        subjectType: 'bank_transfer',
        subjectId: line.id,
        siteId: stranger.siteId,
        facts: {
          senderName: line.senderName,
          senderIban: masked(line.senderIban),
          withdrawalId: stranger.withdrawalId,
          payoutReference: stranger.reference,
          amount: line.amount.toString(),
        },
      });
    }
  }
  return findings;
}
