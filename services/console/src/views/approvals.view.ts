import type { OpsWithdrawal } from '@kasa/contracts';
import { t, th } from '../i18n/index.js';
import { formatTime } from './format.js';
import { html, type SafeHtml } from './html.js';

/** A payout's four-eyes approvals as the ops API shows them (withdrawals and returns to senders alike). */
export type Approvals = OpsWithdrawal['approvals'];

const who = (given: Approvals['given'][number]) => given.email ?? given.operatorId;

/**
 * The "Approvals" fact of a payout (docs/operations.md, Four-eyes): in review above its threshold, "1 of 2" with who
 * gave the standing approval and until when it stands; once approved, who approved. Null when there is nothing to say
 * (one approval needed and none given yet).
 */
export function approvalsFact(status: string, approvals: Approvals): SafeHtml | null {
  if (status === 'PENDING_REVIEW') {
    if (approvals.required === 1) return null;
    const [first] = approvals.given;
    if (!first) return html`<span class="badge warn">${t('review.approvals.count', { given: 0 })}</span> ${t('review.approvals.needsTwo')}`;
    const until = first.expiresAt ? t('review.approvals.until', { at: formatTime(first.expiresAt) }) : '';
    return html`<span class="badge warn">${t('review.approvals.count', { given: 1 })}</span> ${th('review.approvals.firstBy', {
        who: html`<strong>${who(first)}</strong>`,
        at: formatTime(first.at),
        until,
      })}`;
  }
  if (approvals.given.length === 0) return null;
  return html`${approvals.given.map(who).join(', ')}`;
}

/** A short "1 of 2" badge for a queue row above its four-eyes threshold, or nothing. */
export function approvalsBadge(status: string, approvals: Approvals): SafeHtml | '' {
  if (status !== 'PENDING_REVIEW' || approvals.required === 1) return '';
  return html`<span class="badge warn" title="${t('review.approvals.badgeTitle')}"
    >${t('review.approvals.count', { given: approvals.given.length })}</span
  >`;
}

/** Whether this operator gave the payout's standing first approval (so only someone else may give the second). */
export function gaveFirstApproval(approvals: Approvals, operatorId: string | undefined): boolean {
  return approvals.required === 2 && approvals.given.length === 1 && approvals.given[0]?.operatorId === operatorId;
}
