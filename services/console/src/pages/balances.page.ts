import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { SiteBalance } from '@kasa/contracts';
import { t } from '../i18n/index.js';
import { formatTry } from '../views/format.js';
import { html } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';

/** The table's columns, in the request's language. */
const columns = (): Array<Column<SiteBalance>> => [
  { header: t('money.balances.col.site'), cell: (b) => html`<a href="/sites/${seg(b.siteId)}">${b.slug}</a>` },
  { header: t('money.balances.col.name'), cell: (b) => b.name },
  { header: t('money.balances.col.available'), class: 'num', cell: (b) => formatTry(b.available) },
  { header: t('money.balances.col.reserved'), class: 'num', cell: (b) => formatTry(b.reserved) },
  { header: t('money.balances.col.receivedTotal'), class: 'num', cell: (b) => formatTry(b.receivedTotal) },
  { header: t('money.balances.col.paidOutTotal'), class: 'num', cell: (b) => formatTry(b.paidOutTotal) },
  { header: t('money.balances.col.adjustedTotal'), class: 'num', cell: (b) => formatTry(b.adjustedTotal) },
];

/** `GET /balances`: each site's journal balances, as the ledger computes them from its double-entry journal. */
export function balanceRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/balances', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const balances = await ctx.ops.call('listBalances');
    const body = html`<p class="hint">${t('money.balances.hint')}</p>
      ${table({ columns: columns(), rows: balances.data, rowId: (b) => b.siteId, empty: t('money.balances.empty') })}`;
    ctx.render(t('common.nav.balances'), 'balances', body);
  });

  return router;
}
