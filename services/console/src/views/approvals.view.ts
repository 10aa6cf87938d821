import type { OpsWithdrawal } from '@kasa/contracts';
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
    if (!first) return html`<span class="badge warn">0 of 2</span> Needs two different operators (four-eyes).`;
    return html`<span class="badge warn">1 of 2</span> Approved by <strong>${who(first)}</strong> at ${formatTime(first.at)}; a different
      operator gives the second approval${first.expiresAt ? html` before ${formatTime(first.expiresAt)}` : ''}.`;
  }
  if (approvals.given.length === 0) return null;
  return html`${approvals.given.map(who).join(', ')}`;
}

/** A short "1 of 2" badge for a queue row above its four-eyes threshold, or nothing. */
export function approvalsBadge(status: string, approvals: Approvals): SafeHtml | '' {
  if (status !== 'PENDING_REVIEW' || approvals.required === 1) return '';
  return html`<span class="badge warn" title="Four-eyes: approvals given of the two needed">${approvals.given.length} of 2</span>`;
}

/** Whether this operator gave the payout's standing first approval (so only someone else may give the second). */
export function gaveFirstApproval(approvals: Approvals, operatorId: string | undefined): boolean {
  return approvals.required === 2 && approvals.given.length === 1 && approvals.given[0]?.operatorId === operatorId;
}
