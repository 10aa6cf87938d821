import express, { type Router } from 'express';
import type { OpsEvent } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { statusBadge } from '../views/components.js';
import { formatTime, formatTry } from '../views/format.js';
import { t, th } from '../i18n/index.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { transferColumns } from './bank-transfers.page.js';
import { pageContext } from './page-context.js';
import { depositColumns, withdrawalColumns } from './record-lists.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

function eventTable(sites: SiteDirectory, events: OpsEvent[]): SafeHtml {
  return table({
    columns: [
      { header: t('records.col.created'), cell: (e) => formatTime(e.createdAt) },
      { header: t('records.col.event'), cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}"><code>${e.eventId}</code></a>` },
      { header: t('records.col.site'), cellClass: 'nowrap', cell: (e) => siteLink(sites, e.siteId) },
      { header: t('records.col.type'), cell: (e) => e.type },
      { header: t('records.col.status'), cell: (e) => statusBadge(e.status) },
      { header: t('records.col.attempts'), class: 'num', cell: (e) => e.attemptCount },
    ],
    rows: events,
    rowId: (e) => e.eventId,
    empty: t('records.search.noEvent'),
  });
}

function section(title: string, count: number, content: SafeHtml): SafeHtml {
  return html`<section class="results">
    <h2>${title} <span class="muted">(${count})</span></h2>
    ${content}
  </section>`;
}

/** `/search?q=`: the header's search box; every kind of record that matches, each newest first. */
export function searchRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/search', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const q = (ctx.query('q') ?? '').trim();
    if (!q) {
      const body = html`<p class="hint">${t('records.search.help')}</p>`;
      ctx.render(t('records.search.title'), 'search', body);
      return;
    }
    const [found, sites] = await Promise.all([ctx.ops.call('opsSearch', { query: { q } }), siteDirectory(ctx.ops)]);
    const total = found.deposits.length + found.withdrawals.length + found.bankTransfers.length + found.events.length;
    const body = html`<p class="hint">
        ${
          total === 0
            ? th('records.search.none', { q: html`<strong>${q}</strong>` })
            : th('records.search.found', { count: total, q: html`<strong>${q}</strong>` })
        }
        ${t('records.search.newest')}
      </p>
      ${section(
        t('records.search.deposits'),
        found.deposits.length,
        table({
          columns: [
            ...depositColumns(sites),
            { header: t('records.col.requested'), class: 'num', cell: (i) => formatTry(i.requestedAmount) },
            { header: t('records.col.status'), cell: (i) => statusBadge(i.status) },
          ],
          rows: found.deposits,
          rowId: (i) => i.intentId,
          empty: t('records.search.noDeposit'),
        }),
      )}
      ${section(
        t('records.search.withdrawals'),
        found.withdrawals.length,
        table({
          columns: withdrawalColumns(sites),
          rows: found.withdrawals,
          rowId: (w) => w.withdrawalId,
          empty: t('records.search.noWithdrawal'),
        }),
      )}
      ${section(
        t('records.search.transfers'),
        found.bankTransfers.length,
        table({
          columns: transferColumns((transfer) => transfer.description),
          rows: found.bankTransfers,
          rowId: (transfer) => transfer.bankTransferId,
          empty: t('records.search.noTransfer'),
        }),
      )}
      ${section(t('records.search.events'), found.events.length, eventTable(sites, found.events))}`;
    ctx.render(t('records.search.titleFor', { q }), 'search', body, 200, q);
  });
  return router;
}
