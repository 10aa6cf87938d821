/**
 * The decision forms of deposits and withdrawals, by status, shared by the review queue, the lists and the
 * detail pages. Which forms appear follows docs/operations.md (Deposits, Withdrawals); the ledger still decides whether they succeed.
 */
import { USER_REJECTION_REASONS, type OpsIntent, type OpsWithdrawal, type UserRejectionReason } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { t } from '../i18n/index.js';
import { approvalsBadge, gaveFirstApproval } from './approvals.view.js';
import { actionForm, type FormContext } from './components.js';
import { formatTry, liraInputValue } from './format.js';
import { html, type SafeHtml } from './html.js';

const REVIEWABLE_DEPOSIT = new Set(['PENDING_REVIEW', 'LATE_ARRIVAL']);

function reasonField(label: string): SafeHtml {
  return html`<input type="text" name="reason" required maxlength="500" placeholder="${label}" aria-label="${label}" />`;
}

/**
 * How the console names each reason the end user's hosted page may be given (its own words are in the page's catalogue),
 * in the request's language: each label is read when it is shown.
 */
export const USER_REASON_LABELS: Record<UserRejectionReason, string> = {
  get TRANSFER_NOT_RECEIVED() {
    return t('review.userReason.TRANSFER_NOT_RECEIVED');
  },
  get AMOUNT_MISMATCH() {
    return t('review.userReason.AMOUNT_MISMATCH');
  },
  get SENDER_NOT_ACCOUNT_HOLDER() {
    return t('review.userReason.SENDER_NOT_ACCOUNT_HOLDER');
  },
  get REFERENCE_MISSING() {
    return t('review.userReason.REFERENCE_MISSING');
  },
};

/**
 * The reasons the user may be told about this deposit: "no transfer arrived" only when nothing arrived, "amount
 * differs" only when what arrived differs from what was asked; the other two always.
 */
function userReasonsFor(deposit: OpsIntent): UserRejectionReason[] {
  const arrived = deposit.receivedAmount !== null && deposit.receivedAmount !== '0';
  const differs = arrived && deposit.receivedAmount !== deposit.requestedAmount;
  return USER_REJECTION_REASONS.filter((code) => (code !== 'TRANSFER_NOT_RECEIVED' || !arrived) && (code !== 'AMOUNT_MISMATCH' || differs));
}

/** The partner's reason (free text) and what the user's page says (one of the catalogue's, or the general text). */
function depositRejectFields(deposit: OpsIntent): SafeHtml {
  const says = t('review.action.userPage');
  return html`${reasonField(t('review.action.reasonForRejecting'))}
    <select name="userReason" aria-label="${says}" title="${says}">
      <option value="">${t('review.action.tellUserGeneral')}</option>
      ${userReasonsFor(deposit).map((code) => html`<option value="${code}">${t('review.action.tellUser', { reason: USER_REASON_LABELS[code] })}</option>`)}
    </select>`;
}

/**
 * What happens to the rest when the amount typed is below what arrived (docs/operations.md, Queue: deposits to
 * review): returned to its sender (the default) or set aside with a reason. Ignored when the amount is left empty.
 */
function remainderFields(received: string): SafeHtml {
  const help = t('review.action.remainderHelp', { received: formatTry(received) });
  const why = t('review.action.remainderReasonLabel');
  return html`<select name="remainder" aria-label="${help}" title="${help}">
      <option value="return" selected>${t('review.action.remainderReturn')}</option>
      <option value="set_aside">${t('review.action.remainderSetAside')}</option></select
    ><input
      type="text"
      name="remainder_reason"
      size="14"
      maxlength="500"
      placeholder="${t('review.action.remainderReasonPlaceholder')}"
      aria-label="${why}"
      title="${why}"
    />`;
}

/**
 * Money beyond what was asked: only then is there a rest to return or set aside (crediting the amount requested
 * leaves it). Elsewhere the rest controls are left out; an amount typed below what arrived still returns the
 * difference to its sender, the ledger's default.
 */
function hasExcess(deposit: OpsIntent): boolean {
  return deposit.receivedAmount !== null && BigInt(deposit.receivedAmount) > BigInt(deposit.requestedAmount);
}

/** Approve (optionally with another amount) and reject with a reason, for an intent awaiting review. */
export function depositActions(ctx: FormContext, deposit: OpsIntent): SafeHtml {
  if (!REVIEWABLE_DEPOSIT.has(deposit.status)) return html`<span class="muted">—</span>`;
  const base = `/intents/${seg(deposit.intentId)}`;
  const received = deposit.receivedAmount ?? deposit.requestedAmount;
  const short = deposit.receivedAmount !== null && BigInt(deposit.receivedAmount) < BigInt(deposit.requestedAmount);
  const reference = deposit.referenceNo;
  const amountHelp = t('review.action.amountLabel');
  return html`<div class="actions">
    ${
      short && !deposit.waitingForRestSince
        ? actionForm(ctx, {
            action: `${base}/wait-for-rest`,
            label: t('review.action.waitForRest'),
            confirm: t('review.action.waitForRestConfirm', {
              reference,
              received: formatTry(deposit.receivedAmount),
              requested: formatTry(deposit.requestedAmount),
            }),
          })
        : ''
    }
    ${actionForm(ctx, {
      action: `${base}/approve`,
      label: t('review.action.approve'),
      tone: 'primary',
      confirm:
        t('review.action.approveConfirm', { reference, received: formatTry(received) }) +
        (deposit.senderNameMismatch?.length
          ? t('review.action.senderWarning', { senders: deposit.senderNameMismatch.join(', '), user: deposit.externalUserLabel ?? '' })
          : ''),
      fields: html`<input
          type="text"
          name="amount"
          inputmode="decimal"
          size="9"
          placeholder="${liraInputValue(received)}"
          aria-label="${amountHelp}"
          title="${amountHelp}"
        /><span class="unit" aria-hidden="true">₺</span>${hasExcess(deposit) ? remainderFields(received) : ''}`,
    })}
    ${actionForm(ctx, {
      action: `${base}/reject`,
      label: t('review.action.reject'),
      tone: 'danger',
      confirm: t('review.action.rejectDepositConfirm', { reference }),
      fields: depositRejectFields(deposit),
    })}
  </div>`;
}

/** The next steps of a withdrawal: review, payout, and the bank returning the money. */
export function withdrawalActions(ctx: FormContext & { operator?: { operatorId: string } }, withdrawal: OpsWithdrawal): SafeHtml {
  const base = `/withdrawals/${seg(withdrawal.withdrawalId)}`;
  const amount = formatTry(withdrawal.amount);
  const reference = withdrawal.referenceNo;
  const { approvals } = withdrawal;
  const rejectLabel = t('review.action.reject');
  switch (withdrawal.status) {
    case 'PENDING_REVIEW':
      return html`<div class="actions">
        ${approvalsBadge(withdrawal.status, approvals)}
        ${
          gaveFirstApproval(approvals, ctx.operator?.operatorId)
            ? html`<p class="hint">${t('review.action.secondBySomeoneElse')}</p>`
            : actionForm(ctx, {
                action: `${base}/approve`,
                label:
                  approvals.required === 2
                    ? approvals.given.length === 1
                      ? t('review.action.giveSecond')
                      : t('review.action.giveFirst')
                    : t('review.action.approve'),
                tone: 'primary',
                confirm:
                  approvals.required === 2 && approvals.given.length === 0
                    ? t('review.action.firstApprovalConfirm', { reference, amount })
                    : t('review.action.approveWithdrawalConfirm', { reference, amount }),
              })
        }
        ${actionForm(ctx, {
          action: `${base}/reject`,
          label: rejectLabel,
          tone: 'danger',
          confirm: t('review.action.rejectWithdrawalConfirm', { reference }),
          fields: reasonField(t('review.action.reasonForRejecting')),
        })}
      </div>`;
    case 'APPROVED':
      return html`<div class="actions">
        ${actionForm(ctx, {
          action: `${base}/mark-sent`,
          label: t('review.action.markSent'),
          tone: 'primary',
          confirm: t('review.action.markSentConfirm', { reference, amount }),
          fields: html`<input
            type="text"
            name="bankTxId"
            maxlength="128"
            size="12"
            placeholder="${t('review.action.bankTxPlaceholder')}"
            aria-label="${t('review.action.bankTxLabel')}"
          />`,
        })}
        ${actionForm(ctx, {
          action: `${base}/reject`,
          label: rejectLabel,
          tone: 'danger',
          confirm: t('review.action.rejectApprovedConfirm', { reference }),
          fields: reasonField(t('review.action.reasonForRejecting')),
        })}
      </div>`;
    case 'SENT':
      return html`<div class="actions">
        ${actionForm(ctx, {
          action: `${base}/mark-returned`,
          label: t('review.action.markReturned'),
          tone: 'danger',
          confirm: t('review.action.markReturnedConfirm', { reference }),
          fields: reasonField(t('review.action.whyReturned')),
        })}
      </div>`;
    default:
      return html`<span class="muted">—</span>`;
  }
}

/** A warning when the money came from someone whose name does not resemble the user's label. */
export function senderFlag(deposit: OpsIntent): SafeHtml | '' {
  if (!deposit.senderNameMismatch?.length) return '';
  const title = t('review.senderFlag.title', { senders: deposit.senderNameMismatch.join(', '), user: deposit.externalUserLabel ?? '' });
  return html`<span class="badge danger sender-flag" title="${title}">${t('review.senderFlag')}</span>`;
}
