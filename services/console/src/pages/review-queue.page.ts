import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import type { OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { depositActions, senderFlag, withdrawalActions } from '../views/actions.view.js';
import { nextPageLink, statusBadge, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { pageContext } from './page-context.js';
import { depositColumns, waitingCell, withdrawalColumns } from './record-lists.js';
import { siteDirectory, type SiteDirectory } from './site-names.js';

const PAGE_SIZE = '25';

/** Now, and the wait past which an item is marked (REVIEW_WAIT_WARN_MINUTES). */
export interface Waiting {
  now: Date;
  warnMinutes: number;
}

function receivedClass(i: OpsIntent): string {
  return i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num';
}

/** What arrived, and when it is less than requested, by how much: the operator may approve it, reject it or wait for the rest. */
function receivedCell(i: OpsIntent): SafeHtml {
  const missing = i.receivedAmount === null ? 0n : BigInt(i.requestedAmount) - BigInt(i.receivedAmount);
  return missing > 0n
    ? html`${formatTry(i.receivedAmount)}<br /><span class="badge warn" title="Received less than requested"
          >${formatTry(missing.toString())} short</span
        >`
    : html`${formatTry(i.receivedAmount)}`;
}

/** Deposits whose money arrived (in time or late) and that wait for an operator's decision, with how long each has waited. */
export function depositTable(ctx: FormContext, sites: SiteDirectory, deposits: OpsIntent[], waiting: Waiting): SafeHtml {
  return table({
    columns: [
      ...depositColumns(sites),
      { header: 'Requested', class: 'num', cell: (i) => formatTry(i.requestedAmount) },
      { header: 'Received', class: 'num', cellClass: receivedClass, cell: receivedCell },
      { header: 'Status', cell: (i) => html`${statusBadge(i.status)} ${senderFlag(i)}` },
      { header: 'Waiting', cell: (i) => waitingCell(i.awaitingReviewSince, waiting.now, waiting.warnMinutes) },
      { header: 'Decision', cell: (i) => depositActions(ctx, i) },
    ],
    rows: deposits,
    rowId: (i) => i.intentId,
    rowClass: (i) => (i.status === 'LATE_ARRIVAL' ? 'late' : ''),
    empty: 'Nothing waiting for review.',
  });
}

/**
 * Withdrawals with their next action; the IBAN is masked here and shown in full on the detail page. With
 * `waiting`, how long each has waited: since it was asked for, or, once approved, since the approval.
 */
export function withdrawalTable(
  ctx: FormContext,
  sites: SiteDirectory,
  withdrawals: OpsWithdrawal[],
  empty: string,
  waiting?: Waiting,
): SafeHtml {
  return table({
    columns: [
      ...withdrawalColumns(sites),
      ...(waiting
        ? [
            {
              header: 'Waiting',
              cell: (w: OpsWithdrawal) =>
                w.status === 'PENDING_REVIEW' || w.status === 'APPROVED'
                  ? waitingCell(w.status === 'APPROVED' ? w.approvedAt : w.createdAt, waiting.now, waiting.warnMinutes)
                  : '',
            },
          ]
        : []),
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

  router.get('/review', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const intentsCursor = ctx.query('intentsCursor');
    const withdrawalsCursor = ctx.query('withdrawalsCursor');
    const waitingCursor = ctx.query('waitingCursor');
    const [deposits, withdrawals, sites, short] = await Promise.all([
      ctx.ops.call('opsListIntents', {
        query: {
          status: 'PENDING_REVIEW,LATE_ARRIVAL',
          mode: 'live',
          waiting: 'false',
          order: 'oldest',
          limit: PAGE_SIZE,
          cursor: intentsCursor,
        },
      }),
      ctx.ops.call('opsListWithdrawals', {
        query: { status: 'PENDING_REVIEW', mode: 'live', order: 'oldest', limit: PAGE_SIZE, cursor: withdrawalsCursor },
      }),
      siteDirectory(ctx.ops),
      ctx.ops.call('opsListIntents', {
        query: {
          status: 'PENDING_REVIEW,LATE_ARRIVAL',
          mode: 'live',
          waiting: 'true',
          order: 'oldest',
          limit: PAGE_SIZE,
          cursor: waitingCursor,
        },
      }),
    ]);
    const waiting: Waiting = { now: new Date(), warnMinutes: deps.config.reviewWaitWarnMinutes };
    const body = html`<section>
        <h2>Deposits awaiting review</h2>
        <p class="hint">
          Money has arrived for these deposits, oldest first (sandboxes' test deposits are not listed: their partners move them with the
          simulator). Approve credits the site (leave the amount empty to credit what arrived); late arrivals came after the deposit
          expired. A wait over ${waiting.warnMinutes} minutes is marked.
        </p>
        ${depositTable(ctx, sites, deposits.data, waiting)}
        ${nextPageLink('/review', { withdrawalsCursor, waitingCursor }, deposits.nextCursor, 'intentsCursor')}
      </section>
      ${
        short.data.length || waitingCursor
          ? html`<section id="waiting">
              <h2>Waiting for the rest</h2>
              <p class="hint">
                Paid in part; you chose to wait for the rest of the money. Each comes back to the queue above when more money arrives, and
                can be approved for what arrived or rejected at any time.
              </p>
              ${depositTable(ctx, sites, short.data, { ...waiting, warnMinutes: Number.POSITIVE_INFINITY })}
              ${nextPageLink('/review', { intentsCursor, withdrawalsCursor }, short.nextCursor, 'waitingCursor')}
            </section>`
          : ''
      }
      <section>
        <h2>Withdrawals awaiting review</h2>
        <p class="hint">
          Approving reserves the amount on the site's balance. Approved withdrawals wait under
          <a href="/withdrawals?status=APPROVED">Withdrawals → To send</a>.
        </p>
        ${withdrawalTable(ctx, sites, withdrawals.data, 'Nothing waiting for review.', waiting)}
        ${nextPageLink('/review', { intentsCursor, waitingCursor }, withdrawals.nextCursor, 'withdrawalsCursor')}
      </section>`;
    ctx.render('Review queue', 'review', body);
  });

  return router;
}
