import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { ListPage, OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { intentActions, withdrawalActions } from '../views/actions.view.js';
import { emptyRow, nextPageLink, statusBadge, type FormContext } from '../views/components.js';
import { formatTime, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { pageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

const PAGE_SIZE = '25';

/** A deposit's end user: the partner's label when there is one, its id otherwise (both as the partner sent them). */
function userCell(id: string, label: string | null): SafeHtml {
  return label ? html`<span title="${id}">${label}</span>` : html`<code>${id}</code>`;
}

/** Deposits whose money arrived (in time or late) and that wait for an operator's decision. */
export function intentTable(ctx: FormContext, sites: SiteDirectory, intents: OpsIntent[]): SafeHtml {
  return html`<table class="list">
    <thead>
      <tr>
        <th>Created</th>
        <th>Reference</th>
        <th>Site</th>
        <th>User</th>
        <th class="num">Requested</th>
        <th class="num">Received</th>
        <th>Status</th>
        <th>Decision</th>
      </tr>
    </thead>
    <tbody>
      ${
        intents.length === 0
          ? emptyRow(8, 'Nothing waiting for review.')
          : intents.map(
              (i) =>
                html`<tr data-id="${i.intentId}" class="${i.status === 'LATE_ARRIVAL' ? 'late' : ''}">
                  <td>${formatTime(i.createdAt)}</td>
                  <td>
                    <a href="/intents/${seg(i.intentId)}"><code>${i.referenceNo}</code></a>
                  </td>
                  <td class="nowrap">${siteLink(sites, i.siteId)}</td>
                  <td>${userCell(i.externalUserId, i.externalUserLabel)}</td>
                  <td class="num">${formatTry(i.requestedAmount)}</td>
                  <td class="num${i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? ' differs' : ''}">
                    ${formatTry(i.receivedAmount)}
                  </td>
                  <td>${statusBadge(i.status)}</td>
                  <td>${intentActions(ctx, i)}</td>
                </tr>`,
            )
      }
    </tbody>
  </table>`;
}

/** Withdrawals with their next action; the IBAN is masked here and shown in full on the detail page. */
export function withdrawalTable(ctx: FormContext, sites: SiteDirectory, withdrawals: OpsWithdrawal[], empty: string): SafeHtml {
  return html`<table class="list">
    <thead>
      <tr>
        <th>Created</th>
        <th>Reference</th>
        <th>Site</th>
        <th>User</th>
        <th class="num">Amount</th>
        <th>To</th>
        <th>Status</th>
        <th>Next step</th>
      </tr>
    </thead>
    <tbody>
      ${
        withdrawals.length === 0
          ? emptyRow(8, empty)
          : withdrawals.map(
              (w) =>
                html`<tr data-id="${w.withdrawalId}">
                  <td>${formatTime(w.createdAt)}</td>
                  <td>
                    <a href="/withdrawals/${seg(w.withdrawalId)}"><code>${w.referenceNo}</code></a>
                  </td>
                  <td class="nowrap">${siteLink(sites, w.siteId)}</td>
                  <td>${userCell(w.externalUserId, w.externalUserLabel)}</td>
                  <td class="num">${formatTry(w.amount)}</td>
                  <td>${w.targetHolderName}<br /><span class="muted">${maskIban(w.targetIban)}</span></td>
                  <td>${statusBadge(w.status)}</td>
                  <td>${withdrawalActions(ctx, w)}</td>
                </tr>`,
            )
      }
    </tbody>
  </table>`;
}

/** `GET /review`: deposits awaiting review (in time and late) and withdrawals awaiting review, side by side in one queue. */
export function reviewQueueRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/', (_req, res) => {
    res.redirect(303, '/review');
  });

  router.get('/review', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const intentsCursor = ctx.query('intentsCursor');
    const withdrawalsCursor = ctx.query('withdrawalsCursor');
    const [intents, withdrawals, sites] = await Promise.all([
      ctx.ops.get<ListPage<OpsIntent>>('/intents', { status: 'PENDING_REVIEW,LATE_ARRIVAL', limit: PAGE_SIZE, cursor: intentsCursor }),
      ctx.ops.get<ListPage<OpsWithdrawal>>('/withdrawals', { status: 'PENDING_REVIEW', limit: PAGE_SIZE, cursor: withdrawalsCursor }),
      siteDirectory(ctx.ops),
    ]);
    const body = html`<section>
        <h2>Deposits awaiting review</h2>
        <p class="hint">
          Money has arrived for these deposits. Approve credits the site (leave the amount empty to credit what arrived); late arrivals came
          after the deposit expired.
        </p>
        ${intentTable(ctx, sites, intents.data)} ${nextPageLink('/review', { withdrawalsCursor }, intents.nextCursor, 'intentsCursor')}
      </section>
      <section>
        <h2>Withdrawals awaiting review</h2>
        <p class="hint">
          Approving reserves the amount on the site's balance. Approved withdrawals wait under
          <a href="/withdrawals?status=APPROVED">Withdrawals → To send</a>.
        </p>
        ${withdrawalTable(ctx, sites, withdrawals.data, 'Nothing waiting for review.')}
        ${nextPageLink('/review', { intentsCursor }, withdrawals.nextCursor, 'withdrawalsCursor')}
      </section>`;
    ctx.render('Review queue', 'review', body);
  });

  return router;
}
