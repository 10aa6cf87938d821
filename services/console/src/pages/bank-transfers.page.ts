import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { ListPage, OpsBankTransfer } from '@kasa/contracts';
import { actionForm, emptyRow, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime, formatTry, maskIban, shortId } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext } from './page-context.js';

const STATUS_TABS: Array<[string, string]> = [
  ['UNMATCHED', 'Unmatched'],
  ['ASSIGNED', 'Assigned by an operator'],
  ['MATCHED', 'Matched by reference'],
];

function assignForm(ctx: FormContext, transfer: OpsBankTransfer): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(transfer.bankTransferId)}/assign`,
    label: 'Assign',
    tone: 'primary',
    confirm: `Assign this transfer of ${formatTry(transfer.amount)} to the deposit you entered?`,
    fields: html`<input
      type="text"
      name="intent"
      required
      size="38"
      maxlength="64"
      placeholder="Reference (KD...) or intent id"
      aria-label="Deposit reference or intent id"
    />`,
  });
}

/** `/bank-transfers`: money that arrived without a usable reference, and assigning it to the right deposit. */
export function bankTransferRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/bank-transfers', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const requested = ctx.query('status');
    const status = STATUS_TABS.some(([value]) => value === requested) ? (requested as string) : 'UNMATCHED';
    const page = await ctx.ops.get<ListPage<OpsBankTransfer>>('/bank-transfers', { status, limit: '50', cursor: ctx.query('cursor') });
    const body = html`${tabs('/bank-transfers', status, STATUS_TABS)}
      <p class="hint">
        A transfer is unmatched when its description carried no known reference (or the deposit was already decided). Find the deposit the
        sender meant (by its reference, KD..., or its id) and assign the transfer to it; the deposit then waits for review.
      </p>
      <table class="list">
        <thead>
          <tr>
            <th>Received</th>
            <th>Bank tx id</th>
            <th class="num">Amount</th>
            <th>Sender</th>
            <th>Description</th>
            <th>Status</th>
            <th>${status === 'UNMATCHED' ? 'Assign to deposit' : 'Deposit'}</th>
          </tr>
        </thead>
        <tbody>
          ${
            page.data.length === 0
              ? emptyRow(7, 'No transfers in this state.')
              : page.data.map(
                  (t) =>
                    html`<tr data-id="${t.bankTransferId}">
                      <td>${formatTime(t.receivedAt)}</td>
                      <td><code>${t.bankTxId}</code></td>
                      <td class="num">${formatTry(t.amount)}</td>
                      <td>${t.senderName}<br /><span class="muted">${maskIban(t.senderIban)}</span></td>
                      <td>
                        ${t.description}${t.unmatchedReason ? html`<br /><span class="muted">${t.unmatchedReason.replace(/_/g, ' ').toLowerCase()}</span>` : ''}
                      </td>
                      <td>${statusBadge(t.status)}</td>
                      <td>
                        ${t.status === 'UNMATCHED' ? assignForm(ctx, t) : t.intentId ? html`<a href="/intents/${seg(t.intentId)}"><code>${shortId(t.intentId)}</code></a>` : '—'}
                      </td>
                    </tr>`,
                )
          }
        </tbody>
      </table>
      ${nextPageLink('/bank-transfers', { status }, page.nextCursor)}`;
    ctx.render('Bank transfers', 'transfers', body);
  });

  router.post('/bank-transfers/:bankTransferId/assign', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    const entered = ctx.field('intent').trim();
    let intentId = entered;
    // Operators know deposits by the reference the sender should have written; ids are for copy-paste.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(entered)) {
      const found = await ctx.ops.get<ListPage<{ intentId: string }>>('/intents', { referenceNo: entered, limit: '2' });
      if (found.data.length !== 1 || !found.data[0]) {
        throw AppError.validation([{ field: 'intent', message: 'matches no deposit; enter its reference (KD...) or its intent id' }]);
      }
      intentId = found.data[0].intentId;
    }
    const result = await ctx.ops.post<{ intent: { intentId: string } }>(`/bank-transfers/${seg(pathParam(req, 'bankTransferId'))}/assign`, {
      intentId,
    });
    ctx.done('transfer-assigned', `/intents/${seg(result.intent.intentId)}`);
  });

  return router;
}
