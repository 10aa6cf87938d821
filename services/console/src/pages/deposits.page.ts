import express, { type Router } from 'express';
import { DEPOSIT_STATUSES, type ListPage, type OpsIntent } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { nextPageLink, statusBadge } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html } from '../views/html.js';
import { table } from '../views/table.js';
import { pageContext } from './page-context.js';
import { intentColumns, readRecordFilters, recordFilterForm, waitingCell } from './record-lists.js';
import { siteDirectory } from './site-names.js';

/** `/deposits`: every deposit, filtered by site, status, day range, amount range, user or reference, in pages. */
export function depositRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/deposits', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const filters = readRecordFilters((name) => ctx.query(name), DEPOSIT_STATUSES);
    const [page, sites] = await Promise.all([
      ctx.ops.get<ListPage<OpsIntent>>('/intents', { ...filters.api, limit: '50', cursor: ctx.query('cursor') }),
      siteDirectory(ctx.ops),
    ]);
    const now = new Date();
    const body = html`${recordFilterForm('/deposits', sites, filters, { statuses: DEPOSIT_STATUSES })}
      <p class="hint">Amounts are what was requested; received differs when the user sent another figure. Days are in Türkiye time.</p>
      ${table({
        columns: [
          ...intentColumns(sites),
          { header: 'Requested', class: 'num', cell: (i) => formatTry(i.requestedAmount) },
          {
            header: 'Received',
            class: 'num',
            // Marked when the user sent another figure than was asked.
            cellClass: (i) => (i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num'),
            cell: (i) => formatTry(i.receivedAmount),
          },
          { header: 'Status', cell: (i) => statusBadge(i.status) },
          {
            header: 'Waiting',
            cell: (i) =>
              i.status === 'PENDING_REVIEW' || i.status === 'LATE_ARRIVAL'
                ? waitingCell(i.awaitingReviewSince, now, deps.config.reviewWaitWarnMinutes)
                : '',
          },
        ],
        rows: page.data,
        rowId: (i) => i.intentId,
        empty: 'No deposit matches these filters.',
      })}
      ${nextPageLink('/deposits', filters.typed, page.nextCursor)}`;
    ctx.render('Deposits', 'deposits', body);
  });
  return router;
}
