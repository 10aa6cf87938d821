import express, { type Router } from 'express';
import type { OpsEvent } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { statusBadge } from '../views/components.js';
import { formatTime, formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { transferColumns } from './bank-transfers.page.js';
import { pageContext } from './page-context.js';
import { depositColumns, withdrawalColumns } from './record-lists.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

function eventTable(sites: SiteDirectory, events: OpsEvent[]): SafeHtml {
  return table({
    columns: [
      { header: 'Created', cell: (e) => formatTime(e.createdAt) },
      { header: 'Event', cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}"><code>${e.eventId}</code></a>` },
      { header: 'Site', cellClass: 'nowrap', cell: (e) => siteLink(sites, e.siteId) },
      { header: 'Type', cell: (e) => e.type },
      { header: 'Status', cell: (e) => statusBadge(e.status) },
      { header: 'Attempts', class: 'num', cell: (e) => e.attemptCount },
    ],
    rows: events,
    rowId: (e) => e.eventId,
    empty: 'No event.',
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
      const body = html`<p class="hint">
        Type a reference (as the user reads it: case, spaces and dashes do not matter), a deposit's, withdrawal's, transfer's or event's id,
        the partner's user id, a sender's or holder's name, or the last digits of an IBAN.
      </p>`;
      ctx.render('Search', 'search', body);
      return;
    }
    const [found, sites] = await Promise.all([ctx.ops.call('opsSearch', { query: { q } }), siteDirectory(ctx.ops)]);
    const total = found.deposits.length + found.withdrawals.length + found.bankTransfers.length + found.events.length;
    const body = html`<p class="hint">
        ${total === 0 ? html`Nothing matches <strong>${q}</strong>.` : html`${total} found for <strong>${q}</strong>.`} Each list shows the
        newest 20.
      </p>
      ${section(
        'Deposits',
        found.deposits.length,
        table({
          columns: [
            ...depositColumns(sites),
            { header: 'Requested', class: 'num', cell: (i) => formatTry(i.requestedAmount) },
            { header: 'Status', cell: (i) => statusBadge(i.status) },
          ],
          rows: found.deposits,
          rowId: (i) => i.intentId,
          empty: 'No deposit.',
        }),
      )}
      ${section(
        'Withdrawals',
        found.withdrawals.length,
        table({ columns: withdrawalColumns(sites), rows: found.withdrawals, rowId: (w) => w.withdrawalId, empty: 'No withdrawal.' }),
      )}
      ${section(
        'Bank transfers',
        found.bankTransfers.length,
        table({
          columns: transferColumns((t) => t.description),
          rows: found.bankTransfers,
          rowId: (t) => t.bankTransferId,
          empty: 'No bank transfer.',
        }),
      )}
      ${section('Webhook events', found.events.length, eventTable(sites, found.events))}`;
    ctx.render(`Search: ${q}`, 'search', body, 200, q);
  });
  return router;
}
