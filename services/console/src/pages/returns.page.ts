import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { OpsSenderReturn } from '@kasa/contracts';
import { seg, type OpsClient } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { approvalsBadge, approvalsFact, gaveFirstApproval } from '../views/approvals.view.js';
import { actionForm, currentTab, facts, nextPageLink, statusBadge, tabs, testBadge, type FormContext } from '../views/components.js';
import { formatTime, formatTry, groupIban, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import type { NoticeCode } from '../views/notices.js';
import { table } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, string]> = [
  ['PENDING_REVIEW', 'To review'],
  ['APPROVED', 'To send'],
  ['SENT', 'Sent'],
  ['REJECTED', 'Rejected'],
];

/** The next steps of a return, by status: review, then payout. None for a sandbox's: the simulator sent it. */
function returnActions(ctx: FormContext & { operator?: { operatorId: string } }, r: OpsSenderReturn): SafeHtml | string {
  if (!r.livemode) return '';
  const base = `/returns/${seg(r.returnId)}`;
  const amount = formatTry(r.amount);
  const reject = actionForm(ctx, {
    action: `${base}/reject`,
    label: 'Reject',
    tone: 'danger',
    confirm: `Reject the return of ${amount} to ${r.senderName}? The transfer goes back where it was.`,
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      placeholder="Reason for rejecting"
      aria-label="Reason for rejecting"
    />`,
  });
  if (r.status === 'PENDING_REVIEW') {
    return html`<div class="actions">
      ${
        gaveFirstApproval(r.approvals, ctx.operator?.operatorId)
          ? html`<p class="hint">You gave the first approval; a different operator must give the second.</p>`
          : actionForm(ctx, {
              action: `${base}/approve`,
              label:
                r.approvals.required === 2
                  ? r.approvals.given.length === 1
                    ? 'Give the second approval'
                    : 'Give the first approval'
                  : 'Approve',
              tone: 'primary',
              confirm:
                r.approvals.required === 2 && r.approvals.given.length === 0
                  ? `Give the return of ${amount} to ${r.senderName} its first approval? A different operator must approve it too.`
                  : `Approve sending ${amount} back to ${r.senderName}?`,
            })
      }
      ${reject}
    </div>`;
  }
  if (r.status === 'APPROVED') {
    return html`<div class="actions">
      ${actionForm(ctx, {
        action: `${base}/mark-sent`,
        label: 'Mark sent',
        tone: 'primary',
        confirm: `Did ${amount} leave the bank for ${r.senderName}?`,
        fields: html`<input
          type="text"
          name="bankTxId"
          maxlength="128"
          placeholder="Bank tx id (optional)"
          aria-label="Bank transaction id"
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
    label: 'Return to sender',
    tone: 'danger',
    confirm: `Ask to send ${formatTry(amount)} back to ${sender}? It is reviewed before anything is paid.`,
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      size="20"
      placeholder="Why it goes back"
      aria-label="Why it goes back"
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
    const status = currentTab(STATUS_TABS, ctx.query('status'), 'PENDING_REVIEW');
    const queue = status === 'PENDING_REVIEW' || status === 'APPROVED';
    // The live queue unless `mode=test`: the sandboxes' returns of simulated money, which the simulator sends at once.
    const test = ctx.query('mode') === 'test';
    const mode = test ? { mode: 'test' as const } : {};
    const page = await ctx.ops.call('listSenderReturns', {
      query: { status, ...(queue ? { order: 'oldest' } : {}), ...mode, limit: '50', cursor: ctx.query('cursor') },
    });
    const body = html`${tabs('/returns', status, STATUS_TABS)}
      <p class="hint">
        Money no deposit kept (unmatched, set aside, or paid for a rejected deposit) goes back to its sender here: asked for from the
        Transfers page or a rejected deposit, approved, then sent. Open a return for the full IBAN to pay it back to.
        ${
          test
            ? html`These are the sandboxes' returns of simulated money, sent by the simulator: <a href="/returns">the live queue</a>.`
            : html`Returns of the sandboxes' simulated money are not work: <a href="/returns?mode=test&amp;status=SENT">see them</a>.`
        }
      </p>
      ${table({
        columns: [
          { header: 'Asked', cell: (r) => formatTime(r.createdAt) },
          { header: 'Return', cell: (r) => html`<a href="/returns/${seg(r.returnId)}"><code>${r.returnId.slice(0, 8)}</code></a>` },
          { header: 'Amount', class: 'num', cell: (r) => formatTry(r.amount) },
          { header: 'To', cell: (r) => html`${r.senderName}<br /><span class="muted">${maskIban(r.senderIban)}</span>` },
          { header: 'Why', cell: (r) => r.reason },
          {
            header: 'Status',
            cell: (r) => html`${statusBadge(r.status)}${testBadge(r.livemode)} ${approvalsBadge(r.status, r.approvals)}`,
          },
          { header: 'Next step', cell: (r) => returnActions(ctx, r) },
        ],
        rows: page.data,
        rowId: (r) => r.returnId,
        empty: 'No returns in this state.',
      })}
      ${nextPageLink('/returns', { status, ...mode }, page.nextCursor)}
      ${exportCsvLink('returns', { status, ...(queue ? { order: 'oldest' } : {}), ...mode })}`;
    ctx.render('Returns to senders', 'returns', body);
  });

  router.get('/returns/:returnId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const r = await ctx.ops.call('getSenderReturn', { params: { returnId: pathParam(req, 'returnId') } });
    // The one place the sender's full IBAN is shown: the operator types it into the bank to pay back.
    const body = html`<section class="card">
      ${facts([
        ['Status', html`${statusBadge(r.status)}${testBadge(r.livemode)}`],
        ['Amount', html`<strong>${formatTry(r.amount)}</strong>`],
        ['Pay back to', html`<strong>${r.senderName}</strong>`],
        ['IBAN', html`<code class="iban" data-copy="${r.senderIban}">${groupIban(r.senderIban)}</code>`],
        ['Why', r.reason],
        ['Transfer', html`<code>${r.bankTransferId}</code>`],
        ['Asked', formatTime(r.createdAt)],
        ['Approvals', approvalsFact(r.status, r.approvals)],
        ['Approved at', r.approvedAt ? formatTime(r.approvedAt) : null],
        [
          'Sent at',
          r.sentAt ? html`${formatTime(r.sentAt)}${r.sentBankTxId ? html` — bank tx <code>${r.sentBankTxId}</code>` : ''}` : null,
        ],
        ['Rejected at', r.rejectedAt ? html`${formatTime(r.rejectedAt)} — ${r.rejectedReason ?? ''}` : null],
      ])}
      <h2>Next step</h2>
      ${
        returnActions(ctx, r) ||
        html`<p class="muted">
          None: this return is ${r.status.toLowerCase()}${r.livemode ? '' : ", of a sandbox's simulated money: the simulator sent it"}.
        </p>`
      }
      <p class="muted">Its steps are in the <a href="/audit?entityType=sender_return&amp;entityId=${seg(r.returnId)}">audit log</a>.</p>
    </section>`;
    ctx.render(`Return ${r.returnId.slice(0, 8)}`, 'returns', body);
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
