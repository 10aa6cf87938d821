/**
 * Bulk approval on the review queue: a checkbox on every exact-match deposit (received = requested), one form to
 * approve those selected, and a page listing each one's outcome. The ledger approves each on its own
 * (`POST /ops/v1/intents/bulk-approve`): a failure is that deposit's alone and is listed with its reason.
 */
import express, { type Router } from 'express';
import type { BulkApproveResult, OpsIntent } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { reasonTitle } from '../errors.js';
import { statusBadge, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { pageContext, type PageContext } from './page-context.js';

const FORM_ID = 'bulk-approve';

/** Money arrived exactly as requested: the only deposits a bulk approval takes. */
export function isExactMatch(i: OpsIntent): boolean {
  return i.receivedAmount !== null && i.receivedAmount === i.requestedAmount;
}

/** The row's checkbox, in the bulk form by its `form` attribute (the row's own forms cannot nest it). */
export function selectCell(i: OpsIntent): SafeHtml | '' {
  if (!isExactMatch(i)) return '';
  return html`<input
    type="checkbox"
    name="intentId"
    value="${i.intentId}"
    form="${FORM_ID}"
    class="bulk-select"
    data-amount="${i.requestedAmount}"
    aria-label="Select ${i.referenceNo} (${formatTry(i.requestedAmount)}) for bulk approval"
  />`;
}

/** Above the deposits: select every exact match, and approve those selected (the script asks first, with count and total). */
export function bulkApproveBar(ctx: FormContext, deposits: readonly OpsIntent[]): SafeHtml | '' {
  const exact = deposits.filter(isExactMatch).length;
  if (exact === 0) return '';
  return html`<form method="post" action="/review/bulk-approve" id="${FORM_ID}" class="bulk-bar" data-bulk-form>
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label class="select-all" hidden data-js-only><input type="checkbox" data-select-exact /> Select all exact matches (${exact})</label>
    <button type="submit" class="btn primary" data-bulk-submit>Approve selected</button>
    <span class="muted">Each is approved on its own for exactly what arrived; any that fail are listed with the reason.</span>
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
const CODE_TITLES: Record<string, string> = {
  not_found: 'There is no such deposit.',
  internal_error: 'The ledger failed on this one; the others were not affected.',
};

function outcomeCell(result: Result): SafeHtml {
  return result.ok
    ? html`<span class="badge ok">approved</span>`
    : html`<span class="badge danger">failed</span>
        <strong title="${result.error.reason}"
          >${reasonTitle(result.error.reason) ?? CODE_TITLES[result.error.reason] ?? result.error.reason}</strong
        ><br /><span class="detail">${result.error.detail}</span>`;
}

/** The outcome of each deposit, in the order they were sent; approved ones first named by their decision, failed ones by a fresh read. */
function resultsPage(ctx: PageContext, results: readonly Result[], current: Map<string, OpsIntent | null>): SafeHtml {
  const failed = results.filter((r) => !r.ok).length;
  const approved = results.length - failed;
  const intentOf = (r: Result) => (r.ok ? r.intent : (current.get(r.intentId) ?? null));
  return html`<p class="${failed ? 'warn' : 'notice'}" role="status" data-bulk-summary>
      ${approved} approved, ${failed} failed${failed ? '; the failed ones are unchanged by this request.' : '.'} The partners of those
      approved are notified by webhook.
    </p>
    ${table({
      columns: [
        {
          header: 'Reference',
          cell: (r) => {
            const intent = intentOf(r);
            return html`<a href="/intents/${seg(r.intentId)}"><code>${intent?.referenceNo ?? r.intentId}</code></a>`;
          },
        },
        { header: 'Amount', class: 'num', cell: (r) => formatTry(intentOf(r)?.amount ?? intentOf(r)?.requestedAmount ?? null) },
        { header: 'Status now', cell: (r) => (intentOf(r) ? statusBadge(intentOf(r)?.status ?? '') : html`<span class="muted">—</span>`) },
        { header: 'Outcome', cell: outcomeCell },
      ],
      rows: results,
      rowId: (r) => r.intentId,
      rowClass: (r) => (r.ok ? '' : 'failed'),
      empty: 'Nothing was sent.',
    })}
    <p><a class="btn plain" href="/review">← Review queue</a></p>`;
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
      throw AppError.validation(
        [{ field: 'intentId', message: 'select at least one exact-match deposit to approve' }],
        'Nothing was selected.',
      );
    }
    const ctx = pageContext(deps, req, res);
    const { results } = await ctx.ops.call('bulkApproveIntents', { body: { intentIds } });
    const failedIds = results.filter((r) => !r.ok).map((r) => r.intentId);
    const current = new Map(await Promise.all(failedIds.map(async (id) => [id, await currentOf(ctx, id)] as const)));
    ctx.render('Bulk approval', 'review', resultsPage(ctx, results, current));
  });
  return router;
}
