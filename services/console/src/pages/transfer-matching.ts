/** How a transfer's match is shown: its reasons as badges and the deposits a near reference suggests, each one click to assign. */
import type { OpsBankTransfer } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { t, type MessageKey } from '../i18n/index.js';
import { actionForm, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';

/** Each matching reason (docs/operations.md, Matching reasons): its words and its badge's tone. */
const REASON_LABELS: Record<string, [MessageKey, string]> = {
  reference_exact: ['review.match.reference_exact', 'ok'],
  reference_near: ['review.match.reference_near', 'warn'],
  amount_exact: ['review.match.amount_exact', 'ok'],
  amount_less: ['review.match.amount_less', 'warn'],
  amount_more: ['review.match.amount_more', 'warn'],
  sender_matches_user: ['review.match.sender_matches_user', 'ok'],
  sender_differs: ['review.match.sender_differs', 'danger'],
  late: ['review.match.late', 'alert'],
  split: ['review.match.split', 'info'],
  top_up: ['review.match.top_up', 'info'],
};

/** One badge per reason; nothing when there are none. */
export function reasonBadges(reasons: readonly string[] | undefined): SafeHtml | '' {
  if (!reasons?.length) return '';
  return html`<span class="reasons"
    >${reasons.map((r) => {
      const known = REASON_LABELS[r];
      return html`<span class="badge ${known?.[1] ?? 'muted'}">${known ? t(known[0]) : r}</span> `;
    })}</span
  >`;
}

export interface Suggestion {
  intentId: string;
  referenceNo: string;
  confidence: number;
  reasons: string[];
}

const UNMATCHED_REASONS: Record<string, MessageKey> = {
  no_reference: 'review.unmatched.no_reference',
  unknown_reference: 'review.unmatched.unknown_reference',
  ambiguous_reference: 'review.unmatched.ambiguous_reference',
  intent_closed: 'review.unmatched.intent_closed',
};

/**
 * Why a transfer waits, in an operator's words. A description whose reference is one character off holds no valid
 * reference (its check character fails), so the ledger says `no_reference`; with a near suggestion that would read
 * wrong, so the suggestion is named instead.
 */
export function unmatchedBecause(transfer: OpsBankTransfer, suggestions: readonly Suggestion[]): string | null {
  const reason = transfer.unmatchedReason;
  if (!reason) return null;
  const near = suggestions.some((suggestion) => suggestion.reasons.includes('reference_near'));
  if ((reason === 'no_reference' || reason === 'unknown_reference') && near) return t('review.unmatched.near');
  const key = UNMATCHED_REASONS[reason];
  return key ? t(key) : reason.replace(/_/g, ' ').toLowerCase();
}

/** Whether a transfer can still be assigned to a deposit (the only states whose suggestions lead anywhere). */
export function isAssignable(transfer: OpsBankTransfer): boolean {
  return transfer.status === 'UNMATCHED' || transfer.status === 'SET_ASIDE';
}

/** One click: the existing assign action (CSRF, confirm) with the suggested deposit filled in. */
function assignSuggested(ctx: FormContext, transfer: OpsBankTransfer, s: Suggestion, label: string): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(transfer.bankTransferId)}/assign`,
    label,
    tone: 'primary',
    confirm: t('review.suggest.confirm', { amount: formatTry(transfer.amount), reference: s.referenceNo }),
    fields: html`<input type="hidden" name="intent" value="${s.intentId}" />`,
  });
}

/** The suggested deposits, best first, each with its confidence, reasons and an "Assign to this deposit" button. */
export function suggestionList(ctx: FormContext, transfer: OpsBankTransfer, suggestions: readonly Suggestion[]): SafeHtml | '' {
  if (!suggestions.length) return '';
  return html`<ul class="suggestions">
    ${suggestions.map(
      (s) =>
        html`<li>
          <a href="/intents/${seg(s.intentId)}"><code>${s.referenceNo}</code></a>
          <span class="confidence" title="${t('review.suggest.confidenceTitle')}">${s.confidence} %</span>
          ${reasonBadges(s.reasons)} ${isAssignable(transfer) ? assignSuggested(ctx, transfer, s, t('review.suggest.assign')) : ''}
        </li>`,
    )}
  </ul>`;
}

/**
 * A list row's suggestions, short: the best two, each its reference, confidence and a one-click "Assign to KD...";
 * the transfer's own page lists them all with their reasons.
 */
export function suggestionsInRow(ctx: FormContext, transfer: OpsBankTransfer, suggestions: readonly Suggestion[]): SafeHtml | '' {
  if (!suggestions.length || !isAssignable(transfer)) return '';
  return html`<div class="suggested" data-suggestions>
    <span class="muted">${t('review.suggest.inRow')}</span>
    ${suggestions.slice(0, 2).map(
      (s) =>
        html`<div class="suggestion">
          <a href="/intents/${seg(s.intentId)}"><code>${s.referenceNo}</code></a>
          <span class="confidence" title="${t('review.suggest.confidenceTitle')}">${s.confidence} %</span>
          ${assignSuggested(ctx, transfer, s, t('review.suggest.assignTo', { reference: s.referenceNo }))}
        </div>`,
    )}
  </div>`;
}
