import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { SiteBalance } from '@kasa/contracts';
import { formatTry } from '../views/format.js';
import { html } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';

const COLUMNS: Array<Column<SiteBalance>> = [
  { header: 'Site', cell: (b) => html`<a href="/sites/${seg(b.siteId)}">${b.slug}</a>` },
  { header: 'Name', cell: (b) => b.name },
  { header: 'Available', class: 'num', cell: (b) => formatTry(b.available) },
  { header: 'Reserved', class: 'num', cell: (b) => formatTry(b.reserved) },
  { header: 'Received in total', class: 'num', cell: (b) => formatTry(b.receivedTotal) },
  { header: 'Paid out in total', class: 'num', cell: (b) => formatTry(b.paidOutTotal) },
];

/** `GET /balances`: each site's journal balances, as the ledger computes them from its double-entry journal. */
export function balanceRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/balances', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const balances = await ctx.ops.call('listBalances');
    const body = html`<p class="hint">
        Available is what a site may pay out now; reserved is earmarked for approved withdrawals not yet sent.
      </p>
      ${table({ columns: COLUMNS, rows: balances.data, rowId: (b) => b.siteId, empty: 'No sites yet.' })}`;
    ctx.render('Balances', 'balances', body);
  });

  return router;
}
