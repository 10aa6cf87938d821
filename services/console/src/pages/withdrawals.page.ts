import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg, type OpsClient } from '@kasa/ops-client';
import { withdrawalActions } from '../views/actions.view.js';
import { approvalsFact } from '../views/approvals.view.js';
import { currentTab, facts, nextPageLink, tabs } from '../views/components.js';
import { formatTime, formatTry, groupIban } from '../views/format.js';
import { html } from '../views/html.js';
import type { NoticeCode } from '../views/notices.js';
import { actionContext, pageContext } from './page-context.js';
import { withdrawalTable } from './review-queue.page.js';
import { readRecordFilters, recordFilterForm } from './record-lists.js';
import { recordFacts } from './record-facts.js';
import { withSites } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, string]> = [
  ['PENDING_REVIEW', 'To review'],
  ['APPROVED', 'To send'],
  ['SENT', 'Sent'],
  ['RETURNED', 'Returned'],
  ['REJECTED', 'Rejected'],
];

/** The withdrawal transitions an operator drives, with the body each needs and the confirmation after. */
type Field = (name: string) => string;
const ACTIONS: Array<{
  path: string;
  notice: NoticeCode | ((result: unknown) => NoticeCode);
  send: (ops: OpsClient, withdrawalId: string, field: Field) => Promise<unknown>;
}> = [
  {
    path: 'approve',
    // Above the four-eyes threshold the first approval leaves the withdrawal in review.
    notice: (result) => ((result as { status: string }).status === 'PENDING_REVIEW' ? 'first-approval' : 'withdrawal-approved'),
    send: (ops, withdrawalId) => ops.call('approveWithdrawal', { params: { withdrawalId } }),
  },
  {
    path: 'reject',
    notice: 'withdrawal-rejected',
    send: (ops, withdrawalId, field) => ops.call('rejectWithdrawal', { params: { withdrawalId }, body: { reason: field('reason') } }),
  },
  {
    path: 'mark-sent',
    notice: 'withdrawal-sent',
    send: (ops, withdrawalId, field) =>
      ops.call('markWithdrawalSent', { params: { withdrawalId }, body: field('bankTxId') ? { bankTxId: field('bankTxId') } : {} }),
  },
  {
    path: 'mark-returned',
    notice: 'withdrawal-returned',
    send: (ops, withdrawalId, field) => ops.call('markWithdrawalReturned', { params: { withdrawalId }, body: { reason: field('reason') } }),
  },
];

/** `/withdrawals`: the payout lifecycle by status, one withdrawal's payout details, and its transitions. */
export function withdrawalRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/withdrawals', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(STATUS_TABS, ctx.query('status'), 'APPROVED');
    // The tab is the status; the form narrows the tab's list further.
    const filters = readRecordFilters((name) => (name === 'status' ? undefined : ctx.query(name)), []);
    const query = { ...filters.api, status, limit: '50', cursor: ctx.query('cursor') };
    const [page, sites] = await withSites(ctx.ops, ctx.ops.call('opsListWithdrawals', { query }));
    const queue = status === 'PENDING_REVIEW' || status === 'APPROVED';
    const body = html`${tabs('/withdrawals', status, STATUS_TABS)}
    ${recordFilterForm('/withdrawals', sites, filters, { hidden: { status } })}
    ${status === 'APPROVED' ? html`<p class="hint">Open a withdrawal to see the full IBAN for the bank transfer, then mark it sent.</p>` : ''}
    ${withdrawalTable(
      ctx,
      sites,
      page.data,
      'No withdrawals in this state.',
      queue ? { now: new Date(), warnMinutes: deps.config.reviewWaitWarnMinutes } : undefined,
    )}
    ${nextPageLink('/withdrawals', { ...filters.typed, status }, page.nextCursor)} ${exportCsvLink('withdrawals', query)}`;
    ctx.render('Withdrawals', 'withdrawals', body);
  });

  router.get('/withdrawals/:withdrawalId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [w, sites] = await withSites(
      ctx.ops,
      ctx.ops.call('opsGetWithdrawal', { params: { withdrawalId: pathParam(req, 'withdrawalId') } }),
    );
    // The one place the full IBAN is shown: the operator types it into the bank to pay out.
    const body = html`<section class="card">
      ${facts([
        ...recordFacts(sites, w, 'Withdrawal id', w.withdrawalId),
        ['Amount', html`<strong>${formatTry(w.amount)}</strong>`],
        ['Pay to', html`<strong>${w.targetHolderName}</strong>`],
        ['IBAN', html`<code class="iban" data-copy="${w.targetIban}">${groupIban(w.targetIban)}</code>`],
        ['Payment description', html`<code>${w.referenceNo}</code>`],
        ['Created', formatTime(w.createdAt)],
        ['Approvals', approvalsFact(w.status, w.approvals)],
        ['Approved at', formatTime(w.approvedAt)],
        [
          'Sent at',
          w.sentAt ? html`${formatTime(w.sentAt)}${w.sentBankTxId ? html` — bank tx <code>${w.sentBankTxId}</code>` : ''}` : null,
        ],
        ['Rejected at', w.rejectedAt ? html`${formatTime(w.rejectedAt)} — ${w.rejectedReason ?? ''}` : null],
        ['Returned at', w.returnedAt ? html`${formatTime(w.returnedAt)} — ${w.returnedReason ?? ''}` : null],
      ])}
      <h2>Site balance</h2>
      ${facts([
        ['Available', formatTry(w.siteBalance.available)],
        ['Reserved', formatTry(w.siteBalance.reserved)],
      ])}
      <h2>Next step</h2>
      ${withdrawalActions(ctx, w)}
    </section>`;
    ctx.render(`Withdrawal ${w.referenceNo}`, 'withdrawals', body);
  });

  for (const action of ACTIONS) {
    router.post(`/withdrawals/:withdrawalId/${action.path}`, async (req, res) => {
      const ctx = actionContext(deps, req, res, `/withdrawals/${seg(pathParam(req, 'withdrawalId'))}`);
      const result = await action.send(ctx.ops, pathParam(req, 'withdrawalId'), (name) => ctx.field(name));
      ctx.done(typeof action.notice === 'function' ? action.notice(result) : action.notice);
    });
  }

  return router;
}
