/** How a transfer's match is shown: its reasons as badges and the deposits a near reference suggests, each one click to assign. */
import type { OpsBankTransfer } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { actionForm, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';

const REASON_LABELS: Record<string, [string, string]> = {
  reference_exact: ['reference exact', 'ok'],
  reference_near: ['reference near', 'warn'],
  amount_exact: ['amount exact', 'ok'],
  amount_less: ['amount less', 'warn'],
  amount_more: ['amount more', 'warn'],
  sender_matches_user: ['sender is the user', 'ok'],
  sender_differs: ['sender differs', 'danger'],
  late: ['late', 'alert'],
  split: ['split payment', 'info'],
  top_up: ['top-up', 'info'],
};

/** One badge per reason (docs/operations.md, Matching reasons); nothing when there are none. */
export function reasonBadges(reasons: readonly string[] | undefined): SafeHtml | '' {
  if (!reasons?.length) return '';
  return html`<span class="reasons"
    >${reasons.map((r) => html`<span class="badge ${REASON_LABELS[r]?.[1] ?? 'muted'}">${REASON_LABELS[r]?.[0] ?? r}</span> `)}</span
  >`;
}

export interface Suggestion {
  intentId: string;
  referenceNo: string;
  confidence: number;
  reasons: string[];
}

/** The suggested deposits, best first, each with its confidence, reasons and an "Assign to this deposit" button. */
export function suggestionList(ctx: FormContext, transfer: OpsBankTransfer, suggestions: Suggestion[]): SafeHtml | '' {
  if (!suggestions.length) return '';
  const assignable = transfer.status === 'UNMATCHED' || transfer.status === 'SET_ASIDE';
  return html`<ul class="suggestions">
    ${suggestions.map(
      (s) =>
        html`<li>
          <a href="/intents/${seg(s.intentId)}"><code>${s.referenceNo}</code></a>
          <span class="confidence" title="How sure the matcher is">${s.confidence} %</span>
          ${reasonBadges(s.reasons)}
          ${
            assignable
              ? actionForm(ctx, {
                  action: `/bank-transfers/${seg(transfer.bankTransferId)}/assign`,
                  label: 'Assign to this deposit',
                  tone: 'primary',
                  confirm: `Assign this transfer of ${formatTry(transfer.amount)} to deposit ${s.referenceNo}?`,
                  fields: html`<input type="hidden" name="intent" value="${s.intentId}" />`,
                })
              : ''
          }
        </li>`,
    )}
  </ul>`;
}
