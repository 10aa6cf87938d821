import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { SiteBalance } from '@kasa/contracts';
import { emptyRow } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html } from '../views/html.js';
import { pageContext } from './page-context.js';

/** `GET /balances`: each site's journal balances, as the ledger computes them from its double-entry journal. */
export function balanceRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/balances', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const balances = await ctx.ops.get<{ data: SiteBalance[] }>('/balances');
    const body = html`<p class="hint">
        Available is what a site may pay out now; reserved is earmarked for approved withdrawals not yet sent.
      </p>
      <table class="list">
        <thead>
          <tr>
            <th>Site</th>
            <th>Name</th>
            <th class="num">Available</th>
            <th class="num">Reserved</th>
            <th class="num">Received in total</th>
            <th class="num">Paid out in total</th>
          </tr>
        </thead>
        <tbody>
          ${
            balances.data.length === 0
              ? emptyRow(6, 'No sites yet.')
              : balances.data.map(
                  (b) =>
                    html`<tr data-id="${b.siteId}">
                      <td><a href="/sites/${seg(b.siteId)}">${b.slug}</a></td>
                      <td>${b.name}</td>
                      <td class="num">${formatTry(b.available)}</td>
                      <td class="num">${formatTry(b.reserved)}</td>
                      <td class="num">${formatTry(b.receivedTotal)}</td>
                      <td class="num">${formatTry(b.paidOutTotal)}</td>
                    </tr>`,
                )
          }
        </tbody>
      </table>`;
    ctx.render('Balances', 'balances', body);
  });

  return router;
}
