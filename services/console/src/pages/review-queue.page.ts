import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { ListPage, OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { intentActions, withdrawalActions } from '../views/actions.view.js';
import { nextPageLink, statusBadge, type FormContext } from '../views/components.js';
import { formatTime, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

const PAGE_SIZE = '25';

/** A deposit's end user: the partner's label when there is one, its id otherwise (both as the partner sent them). */
function userCell(id: string, label: string | null): SafeHtml {
  return label ? html`<span title="${id}">${label}</span>` : html`<code>${id}</code>`;
}

/** The columns a deposit's and a withdrawal's rows open with. */
function partnerColumns<T extends OpsIntent | OpsWithdrawal>(sites: SiteDirectory, link: (row: T) => SafeHtml): Array<Column<T>> {
  return [
    { header: 'Created', cell: (r) => formatTime(r.createdAt) },
    { header: 'Reference', cell: link },
    { header: 'Site', cellClass: 'nowrap', cell: (r) => siteLink(sites, r.siteId) },
    { header: 'User', cell: (r) => userCell(r.externalUserId, r.externalUserLabel) },
  ];
}

function receivedClass(i: OpsIntent): string {
  return i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num';
}

/** Deposits whose money arrived (in time or late) and that wait for an operator's decision. */
export function intentTable(ctx: FormContext, sites: SiteDirectory, intents: OpsIntent[]): SafeHtml {
  return table({
    columns: [
      ...partnerColumns<OpsIntent>(sites, (i) => html`<a href="/intents/${seg(i.intentId)}"><code>${i.referenceNo}</code></a>`),
      { header: 'Requested', class: 'num', cell: (i) => formatTry(i.requestedAmount) },
      { header: 'Received', class: 'num', cellClass: receivedClass, cell: (i) => formatTry(i.receivedAmount) },
      { header: 'Status', cell: (i) => statusBadge(i.status) },
      { header: 'Decision', cell: (i) => intentActions(ctx, i) },
    ],
    rows: intents,
    rowId: (i) => i.intentId,
    rowClass: (i) => (i.status === 'LATE_ARRIVAL' ? 'late' : ''),
    empty: 'Nothing waiting for review.',
  });
}

/** Withdrawals with their next action; the IBAN is masked here and shown in full on the detail page. */
export function withdrawalTable(ctx: FormContext, sites: SiteDirectory, withdrawals: OpsWithdrawal[], empty: string): SafeHtml {
  return table({
    columns: [
      ...partnerColumns<OpsWithdrawal>(sites, (w) => html`<a href="/withdrawals/${seg(w.withdrawalId)}"><code>${w.referenceNo}</code></a>`),
      { header: 'Amount', class: 'num', cell: (w) => formatTry(w.amount) },
      { header: 'To', cell: (w) => html`${w.targetHolderName}<br /><span class="muted">${maskIban(w.targetIban)}</span>` },
      { header: 'Status', cell: (w) => statusBadge(w.status) },
      { header: 'Next step', cell: (w) => withdrawalActions(ctx, w) },
    ],
    rows: withdrawals,
    rowId: (w) => w.withdrawalId,
    empty,
  });
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
