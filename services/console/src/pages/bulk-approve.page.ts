/**
 * Bulk approval on the review queue: a checkbox on every exact match that arrived in time (received = requested, not
 * a late arrival), one form to approve those selected, and a page listing each one's outcome. The ledger approves
 * each on its own (`POST /ops/v1/intents/bulk-approve`) and refuses, for that item alone, any deposit the checkbox is
 * not offered for: a forged form gets no further than the page's own.
 */
import express, { type Router } from 'express';
import type { BulkApproveResult, OpsIntent } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { reasonTitle } from '../errors.js';
import { currentLocale, t, type MessageKey } from '../i18n/index.js';
import { statusBadge, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { pageContext, type PageContext } from './page-context.js';

const FORM_ID = 'bulk-approve';

/**
 * The deposits a bulk approval takes: money that arrived in time and exactly as requested. A late arrival (the
 * deposit expired before the money came) and short or excess money are each looked at on their own.
 */
export function isBulkApprovable(i: OpsIntent): boolean {
  return i.status === 'PENDING_REVIEW' && i.receivedAmount !== null && i.receivedAmount === i.requestedAmount;
}

/** The row's checkbox, in the bulk form by its `form` attribute (the row's own forms cannot nest it). */
export function selectCell(i: OpsIntent): SafeHtml | '' {
  if (!isBulkApprovable(i)) return '';
  return html`<input
    type="checkbox"
    name="intentId"
    value="${i.intentId}"
    form="${FORM_ID}"
    class="bulk-select"
    data-amount="${i.requestedAmount}"
    aria-label="${t('review.bulk.selectRow', { reference: i.referenceNo, amount: formatTry(i.requestedAmount) })}"
  />`;
}

/** Above the deposits: select every exact match, and approve those selected (the script asks first, with count and total). */
export function bulkApproveBar(ctx: FormContext, deposits: readonly OpsIntent[]): SafeHtml | '' {
  const exact = deposits.filter(isBulkApprovable).length;
  if (exact === 0) return '';
  return html`<form method="post" action="/review/bulk-approve" id="${FORM_ID}" class="bulk-bar" data-bulk-form>
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label class="select-all" hidden data-js-only
      ><input type="checkbox" data-select-exact /> ${t('review.bulk.selectAll', { count: exact })}</label
    >
    <button type="submit" class="btn primary" data-bulk-submit>${t('review.bulk.approveSelected')}</button>
    <span class="muted">${t('review.bulk.barHint')}</span>
  </form>`;
}

type Result = BulkApproveResult['results'][number];

/** A failed item's deposit as it is now (reference, status), read to name it; null if it cannot be read. */
async function currentOf(ctx: PageContext, intentId: string): Promise<OpsIntent | null> {
  try {
    return await ctx.ops.call('opsGetIntent', { params: { intentId } });
  } catch {
    return null;
  }
}

/** Words for the failures that are error codes rather than reasons (the item's deposit is unknown, or the ledger failed on it). */
const CODE_TITLES: Record<string, MessageKey> = {
  not_found: 'review.bulk.failed.not_found',
  internal_error: 'review.bulk.failed.internal_error',
};

/**
 * What the operator reads of a failed item: for `not_exact_match`, why by the deposit as it is now (late, short or
 * excess money), else the ledger's reason in words.
 */
function failureTitle(result: Extract<Result, { ok: false }>, current: OpsIntent | null): string {
  const { reason } = result.error;
  if (reason === 'not_exact_match' && current) {
    if (current.status === 'LATE_ARRIVAL') return t('review.bulk.failed.late');
    const received = current.receivedAmount === null ? null : BigInt(current.receivedAmount);
    if (received !== null && received < BigInt(current.requestedAmount)) return t('review.bulk.failed.short');
    if (received !== null && received > BigInt(current.requestedAmount)) return t('review.bulk.failed.excess');
  }
  const code = CODE_TITLES[reason];
  return code ? t(code) : (reasonTitle(reason) ?? reason);
}

function outcomeCell(result: Result, current: OpsIntent | null): SafeHtml {
  return result.ok
    ? html`<span class="badge ok">${t('review.bulk.approved')}</span>`
    : html`<span class="badge danger">${t('review.bulk.failed')}</span>
        <strong title="${result.error.reason}">${failureTitle(result, current)}</strong>${ledgerDetail(result.error.detail)}`;
}

/**
 * The ledger's own explanation (English prose, with the amounts): under the reason in English; in another language
 * the reason above says it in the operator's words, and the ledger's text stays in reach as the line's tooltip.
 */
function ledgerDetail(detail: string): SafeHtml {
  return currentLocale() === 'en'
    ? html`<br /><span class="detail">${detail}</span>`
    : html` <span class="detail muted" title="${detail}" lang="en">ⓘ</span>`;
}

/** The outcome of each deposit, in the order they were sent; approved ones first named by their decision, failed ones by a fresh read. */
function resultsPage(ctx: PageContext, results: readonly Result[], current: Map<string, OpsIntent | null>): SafeHtml {
  const failed = results.filter((r) => !r.ok).length;
  const approved = results.length - failed;
  const intentOf = (r: Result) => (r.ok ? r.intent : (current.get(r.intentId) ?? null));
  return html`<p class="${failed ? 'warn' : 'notice'}" role="status" data-bulk-summary>
      ${t(failed ? 'review.bulk.summaryFailed' : 'review.bulk.summary', { approved, failed })}
    </p>
    ${table({
      columns: [
        {
          header: t('review.col.reference'),
          cell: (r) => {
            const intent = intentOf(r);
            return html`<a href="/intents/${seg(r.intentId)}"><code>${intent?.referenceNo ?? r.intentId}</code></a>`;
          },
        },
        {
          header: t('review.col.amount'),
          class: 'num',
          cell: (r) => formatTry(intentOf(r)?.amount ?? intentOf(r)?.requestedAmount ?? null),
        },
        {
          header: t('review.col.statusNow'),
          cell: (r) => (intentOf(r) ? statusBadge(intentOf(r)?.status ?? '') : html`<span class="muted">—</span>`),
        },
        { header: t('review.col.outcome'), cell: (r) => outcomeCell(r, intentOf(r)) },
      ],
      rows: results,
      rowId: (r) => r.intentId,
      rowClass: (r) => (r.ok ? '' : 'failed'),
      empty: t('review.bulk.nothingSent'),
    })}
    <p><a class="btn plain" href="/review">← ${t('common.nav.review')}</a></p>`;
}

/** The ids the form sent: one checkbox is a string, several an array (the form body is not parsed `extended`). */
function selectedIds(body: unknown): string[] {
  const value = (body as Record<string, unknown> | undefined)?.intentId;
  const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return [...new Set(ids)];
}

/** `POST /review/bulk-approve`: approves the selected exact matches and shows each one's outcome. */
export function bulkApproveRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.post('/review/bulk-approve', async (req, res) => {
    const intentIds = selectedIds(req.body);
    if (intentIds.length === 0) {
      throw AppError.validation([{ field: 'intentId', message: t('review.bulk.selectOne') }], t('review.bulk.nothingSelected'));
    }
    const ctx = pageContext(deps, req, res);
    const { results } = await ctx.ops.call('bulkApproveIntents', { body: { intentIds } });
    const failedIds = results.filter((r) => !r.ok).map((r) => r.intentId);
    const current = new Map(await Promise.all(failedIds.map(async (id) => [id, await currentOf(ctx, id)] as const)));
    ctx.render(t('review.bulk.title'), 'review', resultsPage(ctx, results, current));
  });
  return router;
}
