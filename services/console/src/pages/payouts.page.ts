import { pathParam } from '@kasa/http';
import express, { type Response, type Router } from 'express';
import type { OpsPayoutBatchDetail, ReceivingAccount } from '@kasa/contracts';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t } from '../i18n/index.js';
import { actionForm, facts } from '../views/components.js';
import { formatTime, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';

type BatchItem = OpsPayoutBatchDetail['items'][number];

/** Who created a batch: the operator's e-mail (the id beside it on hover), or the bootstrap token. */
function creator(batch: { createdBy: string; createdByEmail: string | null }): SafeHtml {
  if (batch.createdByEmail) return html`<span title="${batch.createdBy}">${batch.createdByEmail}</span>`;
  return batch.createdBy === 'bootstrap'
    ? html`<span class="muted">${t('payouts.bootstrap')}</span>`
    : html`<code title="${t('payouts.unknownOperator')}">${batch.createdBy}</code>`;
}

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
    const body = html`<p class="hint">${t('payouts.cycle')}</p>
      <section class="card">${actionForm(ctx, { action: '/payouts', label: t('payouts.create'), tone: 'primary' })}</section>
      ${table({
        columns: [
          { header: t('payouts.created'), cell: (b) => html`<a href="/payouts/${seg(b.batchId)}">${formatTime(b.createdAt)}</a>` },
          { header: t('payouts.paidFrom'), cell: (b) => accountName(accounts.data, b.receivingAccountId) },
          { header: t('payouts.count'), class: 'num', cell: (b) => String(b.count) },
          { header: t('payouts.total'), class: 'num', cell: (b) => formatTry(b.total) },
          { header: t('payouts.createdBy'), cell: (b) => creator(b) },
          {
            header: t('payouts.file'),
            cell: (b) =>
              html`<a href="/payouts/${seg(b.batchId)}/file.xml" download>${t('payouts.xml')}</a> ·
                <a href="/payouts/${seg(b.batchId)}/file.csv" download>${t('payouts.csv')}</a>`,
          },
        ],
        rows: batches.data,
        rowId: (b) => b.batchId,
        empty: t('payouts.empty'),
      })}`;
    ctx.render(t('payouts.title'), 'payouts', body);
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
          [t('payouts.batchId'), html`<code>${batch.batchId}</code>`],
          [t('payouts.created'), formatTime(batch.createdAt)],
          [t('payouts.createdBy'), creator(batch)],
          [t('payouts.paidFrom'), accountName(accounts.data, batch.receivingAccountId)],
          [t('payouts.count'), String(batch.count)],
          [t('payouts.total'), html`<strong>${formatTry(batch.total)}</strong>`],
        ])}
        <p>
          <a class="btn primary" href="/payouts/${id}/file.xml" download>${t('payouts.downloadXml')}</a>
          <a class="btn plain" href="/payouts/${id}/file.csv" download>${t('payouts.downloadCsv')}</a>
        </p>
        <p class="hint">${t('payouts.detailHint')}</p>
      </section>
      ${table<BatchItem>({
        columns: [
          { header: t('payouts.reference'), cell: (i) => html`<code>${i.reference}</code>` },
          {
            header: t('payouts.payout'),
            cell: (i) =>
              i.withdrawalId
                ? html`<a href="/withdrawals/${seg(i.withdrawalId)}">${t('payouts.kind.withdrawal')}</a>`
                : i.senderReturnId
                  ? html`<a href="/returns/${seg(i.senderReturnId)}">${t('payouts.kind.return')}</a>`
                  : i.kind,
          },
          { header: t('payouts.amount'), class: 'num', cell: (i) => formatTry(i.amount) },
          { header: t('payouts.payTo'), cell: (i) => i.creditorName },
          { header: t('payouts.iban'), cell: (i) => maskIban(i.creditorIban) },
        ],
        rows: batch.items,
        rowId: (i) => i.itemId,
        empty: t('payouts.itemsEmpty'),
      })}`;
    ctx.render(t('payouts.batchTitle', { time: formatTime(batch.createdAt) }), 'payouts', body);
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
