import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { OpsSenderReturn } from '@kasa/contracts';
import { seg, type OpsClient } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { approvalsBadge, approvalsFact, gaveFirstApproval } from '../views/approvals.view.js';
import {
  actionForm,
  currentTab,
  facts,
  nextPageLink,
  statusBadge,
  statusLabel,
  tabs,
  testBadge,
  type FormContext,
} from '../views/components.js';
import { formatTime, formatTry, groupIban, maskIban } from '../views/format.js';
import { t, th, type MessageKey } from '../i18n/index.js';
import { html, type SafeHtml } from '../views/html.js';
import type { NoticeCode } from '../views/notices.js';
import { table } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import type { RecordPage } from './record-page.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, MessageKey]> = [
  ['PENDING_REVIEW', 'records.returns.tab.review'],
  ['APPROVED', 'records.returns.tab.send'],
  ['SENT', 'records.returns.tab.sent'],
  ['REJECTED', 'records.returns.tab.rejected'],
];

/** The status tabs in the request's language. */
const statusTabs = (): Array<[string, string]> => STATUS_TABS.map(([status, key]) => [status, t(key)]);

/** The next steps of a return, by status: review, then payout. None for a sandbox's: the simulator sent it. */
function returnActions(ctx: FormContext & { operator?: { operatorId: string } }, r: OpsSenderReturn): SafeHtml | string {
  if (!r.livemode) return '';
  const base = `/returns/${seg(r.returnId)}`;
  const amount = formatTry(r.amount);
  const reject = actionForm(ctx, {
    action: `${base}/reject`,
    label: t('records.return.reject'),
    tone: 'danger',
    confirm: t('records.return.rejectConfirm', { amount, sender: r.senderName }),
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      placeholder="${t('records.return.rejectReason')}"
      aria-label="${t('records.return.rejectReason')}"
    />`,
  });
  if (r.status === 'PENDING_REVIEW') {
    return html`<div class="actions">
      ${
        gaveFirstApproval(r.approvals, ctx.operator?.operatorId)
          ? html`<p class="hint">${t('records.return.firstGiven')}</p>`
          : actionForm(ctx, {
              action: `${base}/approve`,
              label:
                r.approvals.required === 2
                  ? r.approvals.given.length === 1
                    ? t('records.return.giveSecond')
                    : t('records.return.giveFirst')
                  : t('records.return.approve'),
              tone: 'primary',
              confirm:
                r.approvals.required === 2 && r.approvals.given.length === 0
                  ? t('records.return.firstConfirm', { amount, sender: r.senderName })
                  : t('records.return.approveConfirm', { amount, sender: r.senderName }),
            })
      }
      ${reject}
    </div>`;
  }
  if (r.status === 'APPROVED') {
    return html`<div class="actions">
      ${actionForm(ctx, {
        action: `${base}/mark-sent`,
        label: t('records.return.markSent'),
        tone: 'primary',
        confirm: t('records.return.markSentConfirm', { amount, sender: r.senderName }),
        fields: html`<input
          type="text"
          name="bankTxId"
          maxlength="128"
          placeholder="${t('records.return.bankTxPlaceholder')}"
          aria-label="${t('records.return.bankTxLabel')}"
        />`,
      })}
      ${reject}
    </div>`;
  }
  return '';
}

/** A form that asks to send a transfer's money back to its sender (for money no deposit kept). */
export function returnForm(ctx: FormContext, bankTransferId: string, amount: string, sender: string): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(bankTransferId)}/return`,
    label: t('records.return.ask'),
    tone: 'danger',
    confirm: t('records.return.askConfirm', { amount: formatTry(amount), sender }),
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      size="20"
      placeholder="${t('records.return.askReason')}"
      aria-label="${t('records.return.askReason')}"
    />`,
  });
}

type Field = (name: string) => string;
const STEPS: Array<{
  step: string;
  notice: NoticeCode | ((result: unknown) => NoticeCode);
  send: (ops: OpsClient, returnId: string, field: Field) => Promise<unknown>;
}> = [
  {
    step: 'approve',
    // Above the four-eyes threshold the first approval leaves the return in review.
    notice: (result) => ((result as { status: string }).status === 'PENDING_REVIEW' ? 'first-approval' : 'return-approved'),
    send: (ops, returnId) => ops.call('approveSenderReturn', { params: { returnId } }),
  },
  {
    step: 'reject',
    notice: 'return-rejected',
    send: (ops, returnId, field) => ops.call('rejectSenderReturn', { params: { returnId }, body: { reason: field('reason') } }),
  },
  {
    step: 'mark-sent',
    notice: 'return-sent',
    send: (ops, returnId, field) =>
      ops.call('markSenderReturnSent', { params: { returnId }, body: field('bankTxId') ? { bankTxId: field('bankTxId') } : {} }),
  },
];

/** `/returns`: money going back to senders, by status, one return's payout details, and its steps. */
export function returnRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/returns', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(statusTabs(), ctx.query('status'), 'PENDING_REVIEW');
    const queue = status === 'PENDING_REVIEW' || status === 'APPROVED';
    // The live queue unless `mode=test`: the sandboxes' returns of simulated money, which the simulator sends at once.
    const test = ctx.query('mode') === 'test';
    const mode = test ? { mode: 'test' as const } : {};
    const page = await ctx.ops.call('listSenderReturns', {
      query: { status, ...(queue ? { order: 'oldest' } : {}), ...mode, limit: '50', cursor: ctx.query('cursor') },
    });
    const body = html`${tabs('/returns', status, statusTabs())}
      <p class="hint">
        ${t('records.returns.hint')}
        ${
          test
            ? th('records.returns.sandboxList', { link: html`<a href="/returns">${t('records.returns.liveQueue')}</a>` })
            : th('records.returns.sandboxNotWork', {
                link: html`<a href="/returns?mode=test&amp;status=SENT">${t('records.returns.seeThem')}</a>`,
              })
        }
      </p>
      ${table({
        columns: [
          { header: t('records.returns.col.asked'), cell: (r) => formatTime(r.createdAt) },
          {
            header: t('records.returns.col.return'),
            cell: (r) => html`<a href="/returns/${seg(r.returnId)}"><code>${r.returnId.slice(0, 8)}</code></a>`,
          },
          { header: t('records.col.amount'), class: 'num', cell: (r) => formatTry(r.amount) },
          { header: t('records.col.to'), cell: (r) => html`${r.senderName}<br /><span class="muted">${maskIban(r.senderIban)}</span>` },
          { header: t('records.returns.col.why'), cell: (r) => r.reason },
          {
            header: t('records.col.status'),
            cell: (r) => html`${statusBadge(r.status)}${testBadge(r.livemode)} ${approvalsBadge(r.status, r.approvals)}`,
          },
          { header: t('records.col.nextStep'), cell: (r) => returnActions(ctx, r) },
        ],
        rows: page.data,
        rowId: (r) => r.returnId,
        empty: t('records.returns.empty'),
      })}
      ${nextPageLink('/returns', { status, ...mode }, page.nextCursor)}
      ${exportCsvLink('returns', { status, ...(queue ? { order: 'oldest' } : {}), ...mode })}`;
    ctx.render(t('records.returns.title'), 'returns', body);
  });

  router.get('/returns/:returnId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const r = await ctx.ops.call('getSenderReturn', { params: { returnId: pathParam(req, 'returnId') } });
    // The one place the sender's full IBAN is shown: the operator types it into the bank to pay back.
    const body = html`<section class="card">
      ${facts([
        [t('records.col.status'), html`${statusBadge(r.status)}${testBadge(r.livemode)}`],
        [t('records.col.amount'), html`<strong>${formatTry(r.amount)}</strong>`],
        [t('records.return.payBackTo'), html`<strong>${r.senderName}</strong>`],
        ['IBAN', html`<code class="iban" data-copy="${r.senderIban}">${groupIban(r.senderIban)}</code>`],
        [t('records.returns.col.why'), r.reason],
        [t('records.return.transfer'), html`<code>${r.bankTransferId}</code>`],
        [t('records.returns.col.asked'), formatTime(r.createdAt)],
        [t('records.fact.approvals'), approvalsFact(r.status, r.approvals)],
        [t('records.fact.approvedAt'), r.approvedAt ? formatTime(r.approvedAt) : null],
        [
          t('records.fact.sentAt'),
          r.sentAt
            ? html`${formatTime(r.sentAt)}${r.sentBankTxId ? th('records.fact.bankTx', { id: html`<code>${r.sentBankTxId}</code>` }) : ''}`
            : null,
        ],
        [t('records.fact.rejectedAt'), r.rejectedAt ? html`${formatTime(r.rejectedAt)} — ${r.rejectedReason ?? ''}` : null],
      ])}
      <h2>${t('records.col.nextStep')}</h2>
      ${
        returnActions(ctx, r) ||
        html`<p class="muted">
          ${t(r.livemode ? 'records.return.none' : 'records.return.noneSandbox', { status: statusLabel(r.status) })}
        </p>`
      }
      <p class="muted">
        ${th('records.return.steps', {
          link: html`<a href="/audit?entityType=sender_return&amp;entityId=${seg(r.returnId)}">${t('records.return.auditLog')}</a>`,
        })}
      </p>
    </section>`;
    ctx.render(t('records.return.title', { id: r.returnId.slice(0, 8) }), 'returns', body);
  });

  router.post('/bank-transfers/:bankTransferId/return', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    const asked = await ctx.ops.call('requestSenderReturn', {
      params: { bankTransferId: pathParam(req, 'bankTransferId') },
      body: { reason: ctx.field('reason') },
    });
    ctx.done('return-requested', `/returns/${seg(asked.returnId)}`);
  });

  for (const { step, notice, send } of STEPS) {
    router.post(`/returns/:returnId/${step}`, async (req, res) => {
      const returnId = pathParam(req, 'returnId');
      const ctx = actionContext(deps, req, res, `/returns/${seg(returnId)}`);
      const result = await send(ctx.ops, returnId, (name) => ctx.field(name));
      ctx.done(typeof notice === 'function' ? notice(result) : notice);
    });
  }

  return router;
}

/** Returns to senders as a kind of reviewed record (record-pages.ts). */
export const returnsPage = {
  section: 'returns',
  routes: [returnRoutes],
  audit: { entityType: 'sender_return', detailPrefix: '/returns/' },
} as const satisfies RecordPage;
