import { pathParam } from '@kasa/http';
import express, { type Response, type Router } from 'express';
import type { OpsPayoutBatchDetail, ReceivingAccount } from '@kasa/contracts';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { actionForm, facts } from '../views/components.js';
import { formatTime, formatTry, maskIban } from '../views/format.js';
import { html } from '../views/html.js';
import { table } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';

type BatchItem = OpsPayoutBatchDetail['items'][number];

/** The paying account as the operator knows it: bank and masked IBAN, or the id of one no longer listed. */
function accountName(accounts: ReceivingAccount[], accountId: string): string {
  const account = accounts.find((a) => a.id === accountId);
  return account ? `${account.bankName} · ${maskIban(account.iban)}` : accountId;
}

/** The two files a batch can be downloaded as, by the console's extension: the ops API's format and media type. */
const FILES: Record<string, { format?: string; type: string }> = {
  xml: { type: 'application/xml; charset=utf-8' },
  csv: { format: 'csv', type: 'text/csv; charset=utf-8' },
};

function sendFile(res: Response, text: string, batchId: string, ext: string, type: string): void {
  // The batch id came through the ops API's 404 check, but the file name is built from safe characters only.
  const name = `payouts-${batchId.replace(/[^A-Za-z0-9-]/g, '')}.${ext}`;
  res.status(200).type(type).setHeader('Content-Disposition', `attachment; filename="${name}"`);
  res.send(text);
}

/** `/payouts`: approved payouts gathered into batches, each batch's items, and its file for the bank. */
export function payoutRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/payouts', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [batches, accounts] = await Promise.all([ctx.ops.call('listPayoutBatches'), ctx.ops.call('listReceivingAccounts')]);
    const body = html`<p class="hint">
        The payout cycle: approve a withdrawal or a return to a sender, gather the approved payouts into a batch, give the batch's file
        (pain.001 XML or CSV) to the bank, then import the paying account's statement: each payout it shows is marked SENT, or RETURNED when
        the bank sends the money back.
      </p>
      <section class="card">
        ${actionForm(ctx, { action: '/payouts', label: 'Create a batch of every approved payout', tone: 'primary' })}
      </section>
      ${table({
        columns: [
          { header: 'Created', cell: (b) => html`<a href="/payouts/${seg(b.batchId)}">${formatTime(b.createdAt)}</a>` },
          { header: 'Paid from', cell: (b) => accountName(accounts.data, b.receivingAccountId) },
          { header: 'Payouts', class: 'num', cell: (b) => String(b.count) },
          { header: 'Total', class: 'num', cell: (b) => formatTry(b.total) },
          { header: 'Created by', cell: (b) => b.createdBy },
          {
            header: 'File',
            cell: (b) =>
              html`<a href="/payouts/${seg(b.batchId)}/file.xml" download>XML</a> ·
                <a href="/payouts/${seg(b.batchId)}/file.csv" download>CSV</a>`,
          },
        ],
        rows: batches.data,
        rowId: (b) => b.batchId,
        empty: 'No payout batches yet.',
      })}`;
    ctx.render('Payouts', 'payouts', body);
  });

  router.post('/payouts', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/payouts');
    try {
      const batch = await ctx.ops.call('createPayoutBatch', { body: {} });
      ctx.done('payout-batch-created', `/payouts/${seg(batch.batchId)}`);
    } catch (error) {
      if (!(error instanceof OpsApiError && error.status === 409 && error.reason === 'nothing_to_batch')) throw error;
      ctx.done('nothing-to-batch', '/payouts');
    }
  });

  router.get('/payouts/:batchId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [batch, accounts] = await Promise.all([
      ctx.ops.call('getPayoutBatch', { params: { batchId: pathParam(req, 'batchId') } }),
      ctx.ops.call('listReceivingAccounts'),
    ]);
    const id = seg(batch.batchId);
    const body = html`<section class="card">
        ${facts([
          ['Batch id', html`<code>${batch.batchId}</code>`],
          ['Created', formatTime(batch.createdAt)],
          ['Created by', batch.createdBy],
          ['Paid from', accountName(accounts.data, batch.receivingAccountId)],
          ['Payouts', String(batch.count)],
          ['Total', html`<strong>${formatTry(batch.total)}</strong>`],
        ])}
        <p>
          <a class="btn primary" href="/payouts/${id}/file.xml" download>Download pain.001 XML</a>
          <a class="btn plain" href="/payouts/${id}/file.csv" download>Download CSV</a>
        </p>
        <p class="hint">Give the file to the bank; importing the paying account's statement then marks each payout SENT or RETURNED.</p>
      </section>
      ${table<BatchItem>({
        columns: [
          { header: 'Reference', cell: (i) => html`<code>${i.reference}</code>` },
          {
            header: 'Payout',
            cell: (i) =>
              i.withdrawalId
                ? html`<a href="/withdrawals/${seg(i.withdrawalId)}">withdrawal</a>`
                : i.senderReturnId
                  ? html`<a href="/returns/${seg(i.senderReturnId)}">return to sender</a>`
                  : i.kind,
          },
          { header: 'Amount', class: 'num', cell: (i) => formatTry(i.amount) },
          { header: 'Pay to', cell: (i) => i.creditorName },
          { header: 'IBAN', cell: (i) => maskIban(i.creditorIban) },
        ],
        rows: batch.items,
        rowId: (i) => i.itemId,
        empty: 'This batch has no items.',
      })}`;
    ctx.render(`Payout batch of ${formatTime(batch.createdAt)}`, 'payouts', body);
  });

  for (const [ext, { format, type }] of Object.entries(FILES)) {
    router.get(`/payouts/:batchId/file.${ext}`, async (req, res) => {
      const ctx = pageContext(deps, req, res);
      const batchId = pathParam(req, 'batchId');
      const text = await ctx.ops.download('getPayoutBatchFile', { params: { batchId }, ...(format ? { query: { format } } : {}) });
      sendFile(res, text, batchId, ext, type);
    });
  }

  return router;
}
