/**
 * The decision forms of deposits and withdrawals, by status, shared by the review queue, the lists and the
 * detail pages. Which forms appear follows docs/operations.md (Deposits, Withdrawals); the ledger still decides whether they succeed.
 */
import type { OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { actionForm, type FormContext } from './components.js';
import { formatTry, liraInputValue } from './format.js';
import { html, type SafeHtml } from './html.js';

const REVIEWABLE_INTENT = new Set(['PENDING_REVIEW', 'LATE_ARRIVAL']);

function reasonField(label: string): SafeHtml {
  return html`<input type="text" name="reason" required maxlength="500" placeholder="${label}" aria-label="${label}" />`;
}

/** Approve (optionally with another amount) and reject with a reason, for an intent awaiting review. */
export function intentActions(ctx: FormContext, intent: OpsIntent): SafeHtml {
  if (!REVIEWABLE_INTENT.has(intent.status)) return html`<span class="muted">—</span>`;
  const base = `/intents/${seg(intent.intentId)}`;
  const received = intent.receivedAmount ?? intent.requestedAmount;
  return html`<div class="actions">
    ${actionForm(ctx, {
      action: `${base}/approve`,
      label: 'Approve',
      tone: 'primary',
      confirm: `Approve deposit ${intent.referenceNo}? Leave the amount empty to credit what arrived (${formatTry(received)}).`,
      fields: html`<input
        type="text"
        name="amount"
        inputmode="decimal"
        size="9"
        placeholder="${liraInputValue(received)}"
        aria-label="Approved amount in lira (TRY), such as 1500 or 1.500,50; empty credits the received amount"
        title="Approved amount in lira (TRY), such as 1500 or 1.500,50; empty credits the received amount"
      />`,
    })}
    ${actionForm(ctx, { action: `${base}/reject`, label: 'Reject', tone: 'danger', confirm: `Reject deposit ${intent.referenceNo}?`, fields: reasonField('Reason for rejecting') })}
  </div>`;
}

/** The next steps of a withdrawal: review, payout, and the bank returning the money. */
export function withdrawalActions(ctx: FormContext, withdrawal: OpsWithdrawal): SafeHtml {
  const base = `/withdrawals/${seg(withdrawal.withdrawalId)}`;
  const amount = formatTry(withdrawal.amount);
  switch (withdrawal.status) {
    case 'PENDING_REVIEW':
      return html`<div class="actions">
        ${actionForm(ctx, { action: `${base}/approve`, label: 'Approve', tone: 'primary', confirm: `Approve withdrawal ${withdrawal.referenceNo} of ${amount}? The amount is reserved on the site's balance.` })}
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
