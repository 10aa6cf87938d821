import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsBankTransfer } from '@kasa/contracts';
import { actionForm, currentTab, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatBooked, formatTime, formatTry, maskIban, shortId } from '../views/format.js';
import { html, type HtmlValue, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { returnForm } from './returns.page.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, string]> = [
  ['UNMATCHED', 'Unmatched'],
  ['SET_ASIDE', 'Set aside'],
  ['RETURNING', 'Going back'],
  ['RETURNED', 'Returned'],
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

/** Out of the unmatched queue with a reason (waiting for the sender, a compliance hold); it stays assignable. */
function setAsideForm(ctx: FormContext, transfer: OpsBankTransfer): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(transfer.bankTransferId)}/set-aside`,
    label: 'Set aside',
    tone: 'plain',
    confirm: `Set this transfer of ${formatTry(transfer.amount)} aside? It leaves the unmatched queue and can still be assigned.`,
    fields: html`<input type="text" name="reason" required maxlength="500" size="24" placeholder="Why" aria-label="Why it is set aside" />`,
  });
}

function assignCell(ctx: FormContext, t: OpsBankTransfer): HtmlValue {
  const back = returnForm(ctx, t.bankTransferId, t.amount, t.senderName);
  if (t.status === 'UNMATCHED') return html`<div class="actions">${assignForm(ctx, t)} ${setAsideForm(ctx, t)} ${back}</div>`;
  if (t.status === 'SET_ASIDE') return html`<div class="actions">${assignForm(ctx, t)} ${back}</div>`;
  if (t.status === 'RETURNING') return html`<a href="/returns">Returns</a>`;
  if (t.status === 'RETURNED') return html`<a href="/returns?status=SENT">Returns</a>`;
  return t.intentId ? html`<a href="/intents/${seg(t.intentId)}"><code>${shortId(t.intentId)}</code></a>` : '—';
}

/** The description, why it matched no deposit, and why an operator set it aside. */
function describeUnmatched(t: OpsBankTransfer): SafeHtml {
  const why = t.unmatchedReason ? html`<br /><span class="muted">${t.unmatchedReason.replace(/_/g, ' ').toLowerCase()}</span>` : '';
  const aside = t.setAsideReason ? html`<br /><span class="muted">set aside ${formatTime(t.setAsideAt)}: ${t.setAsideReason}</span>` : '';
  const differs = t.bankLineDifference
    ? html`<br /><strong class="error-line">the bank's line differs: ${formatTry(t.bankLineDifference.bankAmount)}</strong>`
    : '';
  return html`${t.description}${why}${aside}${differs}`;
}

/** The columns of a bank transfer wherever transfers are listed; `describe` fills the Description cell. */
export function transferColumns(describe: (t: OpsBankTransfer) => HtmlValue): Array<Column<OpsBankTransfer>> {
  return [
    { header: 'Received', cell: (t) => formatBooked(t.receivedAt, t.receivedTimeKnown) },
    { header: 'Bank tx id', cell: (t) => html`<a href="/bank-transfers/${seg(t.bankTransferId)}"><code>${t.bankTxId}</code></a>` },
    { header: 'Amount', class: 'num', cell: (t) => formatTry(t.amount) },
    { header: 'Sender', cell: (t) => html`${t.senderName}<br /><span class="muted">${maskIban(t.senderIban)}</span>` },
    { header: 'Description', cell: describe },
    { header: 'Status', cell: (t) => statusBadge(t.status) },
  ];
}

/** `/bank-transfers`: money that arrived without a usable reference, and assigning it to the right deposit. */
export function bankTransferRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/bank-transfers', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(STATUS_TABS, ctx.query('status'), 'UNMATCHED');
    // Real money only: the sandboxes' simulated transfers are nobody's work (their deposit pages show them).
    const page = await ctx.ops.call('listBankTransfers', { query: { status, mode: 'live', limit: '50', cursor: ctx.query('cursor') } });
    const body = html`<p class="actions">
        <a class="btn plain" href="/bank-transfers/record">Record a transfer</a>
        <a class="btn plain" href="/statements">Import a statement</a>
      </p>
      ${tabs('/bank-transfers', status, STATUS_TABS)}
      <p class="hint">
        A transfer is unmatched when its description carried no known reference (or the deposit was already decided). Find the deposit the
        sender meant (by its reference, KD..., or its id) and assign the transfer to it; the deposit then waits for review, and several
        transfers may pay one deposit. Set a transfer aside, with the reason, while it waits for the sender or a decision.
      </p>
      ${table({
        columns: [
          ...transferColumns(describeUnmatched),
          {
            header: status === 'UNMATCHED' || status === 'SET_ASIDE' ? 'Assign to deposit' : 'Deposit',
            cell: (t) => assignCell(ctx, t),
          },
        ],
        rows: page.data,
        rowId: (t) => t.bankTransferId,
        empty: 'No transfers in this state.',
      })}
      ${nextPageLink('/bank-transfers', { status }, page.nextCursor)} ${exportCsvLink('bank-transfers', { status, mode: 'live' })}`;
    ctx.render('Bank transfers', 'transfers', body);
  });

  router.post('/bank-transfers/:bankTransferId/set-aside', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    await ctx.ops.call('setBankTransferAside', {
      params: { bankTransferId: pathParam(req, 'bankTransferId') },
      body: { reason: ctx.field('reason') },
    });
    ctx.done('transfer-set-aside');
  });

  router.post('/bank-transfers/:bankTransferId/assign', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    const entered = ctx.field('intent').trim();
    let intentId = entered;
    // Operators know deposits by the reference the sender should have written; ids are for copy-paste.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(entered)) {
      const found = await ctx.ops.call('opsListIntents', { query: { referenceNo: entered, limit: '2' } });
      if (found.data.length !== 1 || !found.data[0]) {
        throw AppError.validation([{ field: 'intent', message: 'matches no deposit; enter its reference (KD...) or its intent id' }]);
      }
      intentId = found.data[0].intentId;
    }
    const result = await ctx.ops.call('assignBankTransfer', {
      params: { bankTransferId: pathParam(req, 'bankTransferId') },
      body: { intentId },
    });
    ctx.done('transfer-assigned', `/intents/${seg(result.intent.intentId)}`);
  });

  router.post('/bank-transfers/:bankTransferId/top-up', async (req, res) => {
    const bankTransferId = pathParam(req, 'bankTransferId');
    const ctx = actionContext(deps, req, res, `/bank-transfers/${seg(bankTransferId)}`);
    const result = await ctx.ops.call('topUpBankTransfer', { params: { bankTransferId }, body: { intentId: ctx.field('intent') } });
    ctx.done('transfer-topped-up', `/intents/${seg(result.intent.intentId)}`);
  });

  return router;
}
