/**
 * The decision forms of deposits and withdrawals, by status, shared by the review queue, the lists and the
 * detail pages. Which forms appear follows docs/operations.md (Deposits, Withdrawals); the ledger still decides whether they succeed.
 */
import { USER_REJECTION_REASONS, type OpsIntent, type OpsWithdrawal, type UserRejectionReason } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { approvalsBadge, gaveFirstApproval } from './approvals.view.js';
import { actionForm, type FormContext } from './components.js';
import { formatTry, liraInputValue } from './format.js';
import { html, type SafeHtml } from './html.js';

const REVIEWABLE_DEPOSIT = new Set(['PENDING_REVIEW', 'LATE_ARRIVAL']);

function reasonField(label: string): SafeHtml {
  return html`<input type="text" name="reason" required maxlength="500" placeholder="${label}" aria-label="${label}" />`;
}

/** How the console names each reason the end user's hosted page may be given (its own words are in the page's catalogue). */
export const USER_REASON_LABELS: Record<UserRejectionReason, string> = {
  TRANSFER_NOT_RECEIVED: 'no transfer arrived',
  AMOUNT_MISMATCH: 'amount differs',
  SENDER_NOT_ACCOUNT_HOLDER: 'sender not account holder',
  REFERENCE_MISSING: 'no reference',
};

/** The partner's reason (free text) and what the user's page says (one of the catalogue's, or the general text). */
function depositRejectFields(): SafeHtml {
  return html`${reasonField('Reason for rejecting')}
    <select name="userReason" aria-label="What the user's deposit page says" title="What the user's deposit page says">
      <option value="">Tell user: general text</option>
      ${USER_REJECTION_REASONS.map((code) => html`<option value="${code}">Tell user: ${USER_REASON_LABELS[code]}</option>`)}
    </select>`;
}

/**
 * What happens to the rest when the amount typed is below what arrived (docs/operations.md, Queue: deposits to
 * review): returned to its sender (the default) or set aside with a reason. Ignored when the amount is left empty.
 */
function remainderFields(received: string): SafeHtml {
  const help = `If less than ${formatTry(received)} is credited: what happens to the rest`;
  return html`<select name="remainder" aria-label="${help}" title="${help}">
      <option value="return" selected>Rest: return to sender</option>
      <option value="set_aside">Rest: set aside</option></select
    ><input
      type="text"
      name="remainder_reason"
      size="14"
      maxlength="500"
      placeholder="Why set aside"
      aria-label="Why the rest is set aside (required to set it aside)"
      title="Why the rest is set aside (required to set it aside)"
    />`;
}

/** Approve (optionally with another amount) and reject with a reason, for an intent awaiting review. */
export function depositActions(ctx: FormContext, deposit: OpsIntent): SafeHtml {
  if (!REVIEWABLE_DEPOSIT.has(deposit.status)) return html`<span class="muted">—</span>`;
  const base = `/intents/${seg(deposit.intentId)}`;
  const received = deposit.receivedAmount ?? deposit.requestedAmount;
  const short = deposit.receivedAmount !== null && BigInt(deposit.receivedAmount) < BigInt(deposit.requestedAmount);
  return html`<div class="actions">
    ${
      short && !deposit.waitingForRestSince
        ? actionForm(ctx, {
            action: `${base}/wait-for-rest`,
            label: 'Wait for the rest',
            confirm:
              `Deposit ${deposit.referenceNo} received ${formatTry(deposit.receivedAmount)} of ${formatTry(deposit.requestedAmount)}. ` +
              'Take it out of the review queue until more money arrives?',
          })
        : ''
    }
    ${actionForm(ctx, {
      action: `${base}/approve`,
      label: 'Approve',
      tone: 'primary',
      confirm:
        `Approve deposit ${deposit.referenceNo}? Leave the amount empty to credit what arrived (${formatTry(received)}).` +
        (deposit.senderNameMismatch?.length
          ? ` The money came from ${deposit.senderNameMismatch.join(', ')}, not a name like the user's (${deposit.externalUserLabel ?? ''}): check before approving.`
          : ''),
      fields: html`<input
          type="text"
          name="amount"
          inputmode="decimal"
          size="9"
          placeholder="${liraInputValue(received)}"
          aria-label="Approved amount in lira (TRY), such as 1500 or 1.500,50; empty credits the received amount"
          title="Approved amount in lira (TRY), such as 1500 or 1.500,50; empty credits the received amount"
        /><span class="unit" aria-hidden="true">₺</span>${deposit.receivedAmount !== null ? remainderFields(received) : ''}`,
    })}
    ${actionForm(ctx, { action: `${base}/reject`, label: 'Reject', tone: 'danger', confirm: `Reject deposit ${deposit.referenceNo}?`, fields: depositRejectFields() })}
  </div>`;
}

/** The next steps of a withdrawal: review, payout, and the bank returning the money. */
export function withdrawalActions(ctx: FormContext & { operator?: { operatorId: string } }, withdrawal: OpsWithdrawal): SafeHtml {
  const base = `/withdrawals/${seg(withdrawal.withdrawalId)}`;
  const amount = formatTry(withdrawal.amount);
  const { approvals } = withdrawal;
  switch (withdrawal.status) {
    case 'PENDING_REVIEW':
      return html`<div class="actions">
        ${approvalsBadge(withdrawal.status, approvals)}
        ${
          gaveFirstApproval(approvals, ctx.operator?.operatorId)
            ? html`<p class="hint">You gave the first approval; a different operator must give the second.</p>`
            : actionForm(ctx, {
                action: `${base}/approve`,
                label:
                  approvals.required === 2
                    ? approvals.given.length === 1
                      ? 'Give the second approval'
                      : 'Give the first approval'
                    : 'Approve',
                tone: 'primary',
                confirm:
                  approvals.required === 2 && approvals.given.length === 0
                    ? `Give withdrawal ${withdrawal.referenceNo} of ${amount} its first approval? A different operator must approve it too before the amount is reserved.`
                    : `Approve withdrawal ${withdrawal.referenceNo} of ${amount}? The amount is reserved on the site's balance.`,
              })
        }
        ${actionForm(ctx, { action: `${base}/reject`, label: 'Reject', tone: 'danger', confirm: `Reject withdrawal ${withdrawal.referenceNo}?`, fields: reasonField('Reason for rejecting') })}
      </div>`;
    case 'APPROVED':
      return html`<div class="actions">
        ${actionForm(ctx, {
          action: `${base}/mark-sent`,
          label: 'Mark sent',
          tone: 'primary',
          confirm: `Mark withdrawal ${withdrawal.referenceNo} (${amount}) as sent? Do this only after the bank accepted the transfer.`,
          fields: html`<input
            type="text"
            name="bankTxId"
            maxlength="128"
            size="12"
            placeholder="Bank tx id (optional)"
            aria-label="Bank transaction id (optional)"
          />`,
        })}
        ${actionForm(ctx, { action: `${base}/reject`, label: 'Reject', tone: 'danger', confirm: `Reject approved withdrawal ${withdrawal.referenceNo}? The reservation is released.`, fields: reasonField('Reason for rejecting') })}
      </div>`;
    case 'SENT':
      return html`<div class="actions">
        ${actionForm(ctx, { action: `${base}/mark-returned`, label: 'Mark returned', tone: 'danger', confirm: `Mark withdrawal ${withdrawal.referenceNo} as returned by the bank?`, fields: reasonField('Why the bank returned it') })}
      </div>`;
    default:
      return html`<span class="muted">—</span>`;
  }
}

/** A warning when the money came from someone whose name does not resemble the user's label. */
export function senderFlag(deposit: OpsIntent): SafeHtml | '' {
  if (!deposit.senderNameMismatch?.length) return '';
  return html`<span
    class="badge danger sender-flag"
    title="Sent by ${deposit.senderNameMismatch.join(', ')}; the user is ${deposit.externalUserLabel ?? ''}"
    >sender differs</span
  >`;
}
