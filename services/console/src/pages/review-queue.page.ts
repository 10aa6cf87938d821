import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { t, th } from '../i18n/index.js';
import type { OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { depositActions, senderFlag, withdrawalActions } from '../views/actions.view.js';
import { nextPageLink, statusBadge, type FormContext } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { bulkApproveBar, isBulkApprovable, selectCell } from './bulk-approve.page.js';
import { reviewCount } from './live-counts.routes.js';
import { pageContext } from './page-context.js';
import { waitingCell, withdrawalColumns } from './record-lists.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

const PAGE_SIZE = '25';

/** Now, and the wait past which an item is marked (REVIEW_WAIT_WARN_MINUTES). */
export interface Waiting {
  now: Date;
  warnMinutes: number;
  /** Items that entered the queue after this instant are marked new (the "N new - show" link of the live bar). */
  newSince?: Date | null;
}

function receivedClass(i: OpsIntent): string {
  return i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num';
}

/** What arrived, and when it is less than requested, by how much: the operator may approve it, reject it or wait for the rest. */
function receivedCell(i: OpsIntent): SafeHtml {
  const missing = i.receivedAmount === null ? 0n : BigInt(i.requestedAmount) - BigInt(i.receivedAmount);
  return missing > 0n
    ? html`${formatTry(i.receivedAmount)}<br /><span class="badge warn" title="${t('review.queue.shortTitle')}"
          >${t('review.queue.short', { amount: formatTry(missing.toString()) })}</span
        >`
    : html`${formatTry(i.receivedAmount)}`;
}

/** Who sent the money, each different name once; the sender-name warning beside them. */
function senderCell(i: OpsIntent): SafeHtml {
  const names = i.senderNames ?? [];
  if (names.length === 0) return html`<span class="muted">—</span>`;
  return html`${names.map((name, n) => html`${n > 0 ? html`<br />` : ''}${name}`)}${i.senderNameMismatch?.length ? html`<br />${senderFlag(i)}` : ''}`;
}

const isNew = (since: string | null, waiting: Waiting) =>
  Boolean(waiting.newSince && since && Date.parse(since) > waiting.newSince.getTime());

/** The "new" mark of an item that entered the queue after the page the operator came from. */
function newMark(since: string | null, waiting: Waiting): SafeHtml | '' {
  return isNew(since, waiting) ? html` <span class="badge info new-mark">${t('review.queue.new')}</span>` : '';
}

/**
 * Deposits whose money arrived (in time or late) and that wait for an operator's decision, with how long each has
 * waited. With `bulk`, the deposits a bulk approval takes (exact matches in time) get a checkbox for its form.
 */
export function depositTable(ctx: FormContext, sites: SiteDirectory, deposits: OpsIntent[], waiting: Waiting, bulk = false): SafeHtml {
  const columns: Array<Column<OpsIntent>> = [
    // Every row is pending review: only a late arrival says so (its row is tinted too), which keeps the table narrow.
    {
      header: t('review.col.reference'),
      cell: (i) =>
        html`<a href="/intents/${seg(i.intentId)}"><code>${i.referenceNo}</code></a
          >${i.status === 'LATE_ARRIVAL' ? html`<br />${statusBadge(i.status)}` : ''}`,
    },
    { header: t('review.col.site'), cellClass: 'nowrap', cell: (i) => siteLink(sites, i.siteId) },
    { header: t('review.col.user'), cell: (i) => i.externalUserLabel ?? html`<span class="muted">—</span>` },
    { header: t('review.col.userId'), cell: (i) => html`<code>${i.externalUserId}</code>` },
    { header: t('review.col.sender'), cell: senderCell },
    { header: t('review.col.transfers'), class: 'num', cell: (i) => String(i.transferCount ?? 0) },
    { header: t('review.col.requested'), class: 'num', cell: (i) => formatTry(i.requestedAmount) },
    { header: t('review.col.received'), class: 'num', cellClass: receivedClass, cell: receivedCell },
    {
      header: t('review.col.waiting'),
      cell: (i) => html`${waitingCell(i.awaitingReviewSince, waiting.now, waiting.warnMinutes)}${newMark(i.awaitingReviewSince, waiting)}`,
    },
    { header: t('review.col.decision'), cell: (i) => depositActions(ctx, i) },
  ];
  return table({
    columns: bulk
      ? [{ header: html`<span class="visually-hidden">${t('review.col.select')}</span>`, cell: selectCell }, ...columns]
      : columns,
    rows: deposits,
    rowId: (i) => i.intentId,
    rowClass: (i) =>
      [
        i.status === 'LATE_ARRIVAL' ? 'late' : '',
        isNew(i.awaitingReviewSince, waiting) ? 'new' : '',
        bulk && isBulkApprovable(i) ? 'exact' : '',
      ]
        .filter(Boolean)
        .join(' '),
    empty: t('review.queue.empty'),
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
              header: t('review.col.waiting'),
              cell: (w: OpsWithdrawal) =>
                w.status === 'PENDING_REVIEW' || w.status === 'APPROVED'
                  ? html`${waitingCell(w.status === 'APPROVED' ? w.approvedAt : w.createdAt, waiting.now, waiting.warnMinutes)}${
                      w.status === 'PENDING_REVIEW' ? newMark(w.createdAt, waiting) : ''
                    }`
                  : '',
            },
          ]
        : []),
      { header: t('review.col.nextStep'), cell: (w) => withdrawalActions(ctx, w) },
    ],
    rows: withdrawals,
    rowId: (w) => w.withdrawalId,
    rowClass: (w) => (waiting && w.status === 'PENDING_REVIEW' && isNew(w.createdAt, waiting) ? 'new' : ''),
    empty,
  });
}

/** `newSince` from the live bar's link: an instant, or nothing to mark. */
function newSinceOf(typed: string | undefined): Date | null {
  const at = typed ? Date.parse(typed) : Number.NaN;
  return Number.isNaN(at) ? null : new Date(at);
}

/**
 * The bar the page script shows when the queue grows while the page is open ("3 new - show"): the rows under the
 * operator's cursor never move; the link reloads the queue with the newcomers marked. `data-live-baseline` is the
 * count the rows below were read with.
 */
function liveBar(baseline: number, readAt: string): SafeHtml {
  return html`<p class="live-bar" data-live-bar data-live-baseline="${baseline}" hidden>
    <span data-live-new-text></span>
    <a class="btn small" href="/review?newSince=${encodeURIComponent(readAt)}">${t('review.queue.show')}</a>
  </p>`;
}

/** `GET /review`: deposits awaiting review (in time and late) and withdrawals awaiting review, side by side in one queue. */
export function reviewQueueRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/review', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const intentsCursor = ctx.query('intentsCursor');
    const withdrawalsCursor = ctx.query('withdrawalsCursor');
    const waitingCursor = ctx.query('waitingCursor');
    const [dashboard, deposits, withdrawals, sites, short] = await Promise.all([
      // The count the live bar starts from, read beside the lists: something arriving in between may be announced as new
      // once too often, never missed.
      ctx.ops.call('opsDashboard'),
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
    const waiting: Waiting = {
      now: new Date(),
      warnMinutes: deps.config.reviewWaitWarnMinutes,
      newSince: newSinceOf(ctx.query('newSince')),
    };
    const body = html`${liveBar(reviewCount(dashboard), dashboard.generatedAt)}
      <section>
        <h2>${t('review.queue.depositsTitle')}</h2>
        <p class="hint">${t('review.queue.depositsHint', { minutes: waiting.warnMinutes })}</p>
        ${bulkApproveBar(ctx, deposits.data)} ${depositTable(ctx, sites, deposits.data, waiting, true)}
        ${nextPageLink('/review', { withdrawalsCursor, waitingCursor }, deposits.nextCursor, 'intentsCursor')}
      </section>
      ${
        short.data.length || waitingCursor
          ? html`<section id="waiting">
              <h2>${t('review.queue.waitingTitle')}</h2>
              <p class="hint">${t('review.queue.waitingHint')}</p>
              ${depositTable(ctx, sites, short.data, { ...waiting, warnMinutes: Number.POSITIVE_INFINITY })}
              ${nextPageLink('/review', { intentsCursor, withdrawalsCursor }, short.nextCursor, 'waitingCursor')}
            </section>`
          : ''
      }
      <section>
        <h2>${t('review.queue.withdrawalsTitle')}</h2>
        <p class="hint">
          ${th('review.queue.withdrawalsHint', { link: html`<a href="/withdrawals?status=APPROVED">${t('review.queue.toSend')}</a>` })}
        </p>
        ${withdrawalTable(ctx, sites, withdrawals.data, t('review.queue.empty'), waiting)}
        ${nextPageLink('/review', { intentsCursor, waitingCursor }, withdrawals.nextCursor, 'withdrawalsCursor')}
      </section>`;
    ctx.render(t('review.queue.title'), 'review', body);
  });

  return router;
}
