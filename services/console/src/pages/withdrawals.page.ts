import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg, type OpsClient } from '@kasa/ops-client';
import { withdrawalActions } from '../views/actions.view.js';
import { approvalsFact } from '../views/approvals.view.js';
import { currentTab, facts, nextPageLink, tabs } from '../views/components.js';
import { formatTime, formatTry, groupIban } from '../views/format.js';
import { t, th, type MessageKey } from '../i18n/index.js';
import { html } from '../views/html.js';
import type { NoticeCode } from '../views/notices.js';
import { actionContext, pageContext } from './page-context.js';
import { withdrawalTable } from './review-queue.page.js';
import { readRecordFilters, recordFilterForm } from './record-lists.js';
import { recordFacts } from './record-facts.js';
import type { RecordPage } from './record-page.js';
import { withSites } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, MessageKey]> = [
  ['PENDING_REVIEW', 'records.withdrawals.tab.review'],
  ['APPROVED', 'records.withdrawals.tab.send'],
  ['SENT', 'records.withdrawals.tab.sent'],
  ['RETURNED', 'records.withdrawals.tab.returned'],
  ['REJECTED', 'records.withdrawals.tab.rejected'],
];

/** The status tabs in the request's language. */
const statusTabs = (): Array<[string, string]> => STATUS_TABS.map(([status, key]) => [status, t(key)]);

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
    const status = currentTab(statusTabs(), ctx.query('status'), 'APPROVED');
    // The tab is the status; the form narrows the tab's list further.
    const filters = readRecordFilters((name) => (name === 'status' ? undefined : ctx.query(name)), []);
    const query = { ...filters.api, status, limit: '50', cursor: ctx.query('cursor') };
    const [page, sites] = await withSites(ctx.ops, ctx.ops.call('opsListWithdrawals', { query }));
    const queue = status === 'PENDING_REVIEW' || status === 'APPROVED';
    const body = html`${tabs('/withdrawals', status, statusTabs())}
    ${recordFilterForm('/withdrawals', sites, filters, { hidden: { status } })}
    ${status === 'APPROVED' ? html`<p class="hint">${t('records.withdrawals.hint')}</p>` : ''}
    ${withdrawalTable(
      ctx,
      sites,
      page.data,
      t('records.withdrawals.empty'),
      queue ? { now: new Date(), warnMinutes: deps.config.reviewWaitWarnMinutes } : undefined,
    )}
    ${nextPageLink('/withdrawals', { ...filters.typed, status }, page.nextCursor)} ${exportCsvLink('withdrawals', query)}`;
    ctx.render(t('records.withdrawals.title'), 'withdrawals', body);
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
        ...recordFacts(sites, w, t('records.withdrawal.id'), w.withdrawalId),
        [t('records.col.amount'), html`<strong>${formatTry(w.amount)}</strong>`],
        [t('records.withdrawal.payTo'), html`<strong>${w.targetHolderName}</strong>`],
        ['IBAN', html`<code class="iban" data-copy="${w.targetIban}">${groupIban(w.targetIban)}</code>`],
        [t('records.withdrawal.description'), html`<code>${w.referenceNo}</code>`],
        [t('records.col.created'), formatTime(w.createdAt)],
        [t('records.fact.approvals'), approvalsFact(w.status, w.approvals)],
        [t('records.fact.approvedAt'), formatTime(w.approvedAt)],
        [
          t('records.fact.sentAt'),
          w.sentAt
            ? html`${formatTime(w.sentAt)}${w.sentBankTxId ? th('records.fact.bankTx', { id: html`<code>${w.sentBankTxId}</code>` }) : ''}`
            : null,
        ],
        [t('records.fact.rejectedAt'), w.rejectedAt ? html`${formatTime(w.rejectedAt)} — ${w.rejectedReason ?? ''}` : null],
        [t('records.withdrawal.returnedAt'), w.returnedAt ? html`${formatTime(w.returnedAt)} — ${w.returnedReason ?? ''}` : null],
      ])}
      <h2>${t('records.withdrawal.siteBalance')}</h2>
      ${facts([
        [t('records.withdrawal.available'), formatTry(w.siteBalance.available)],
        [t('records.withdrawal.reserved'), formatTry(w.siteBalance.reserved)],
      ])}
      <h2>${t('records.col.nextStep')}</h2>
      ${withdrawalActions(ctx, w)}
    </section>`;
    ctx.render(t('records.withdrawal.title', { reference: w.referenceNo }), 'withdrawals', body);
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

/** Withdrawals as a kind of reviewed record (record-pages.ts). */
export const withdrawalsPage = {
  section: 'withdrawals',
  routes: [withdrawalRoutes],
  audit: { entityType: 'withdrawal', detailPrefix: '/withdrawals/' },
} as const satisfies RecordPage;
