import express, { type Router } from 'express';
import type { OpsBankTransfer, OpsResponse, ReceivingAccount } from '@kasa/contracts';
import { OpsApiError, seg, type OpsClient } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { statusBadge, type FormContext } from '../views/components.js';
import { formatTime, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import type { UploadedFile } from './multipart.js';
import { pageContext } from './page-context.js';
import { reasonBadges, suggestionList, type Suggestion } from './transfer-matching.js';

type StatementImport = OpsResponse<'importStatement'>;

/** The media type the ops API takes for a file, by the format chosen or else by its extension. */
const FORMATS: Record<string, string> = { camt: 'application/xml', mt940: 'text/plain', csv: 'text/csv' };
export function contentTypeOf(filename: string, format: string): string | null {
  if (FORMATS[format]) return FORMATS[format];
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  if (ext === 'xml') return 'application/xml';
  if (['sta', 'txt', 'mt940'].includes(ext)) return 'text/plain';
  if (ext === 'csv') return 'text/csv';
  return null;
}

function uploadForm(ctx: FormContext, accounts: ReceivingAccount[], chosen: string): SafeHtml {
  return html`<form method="post" action="/statements" enctype="multipart/form-data" class="grid-form card">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="/statements" />
    <label
      >Receiving account
      <select name="account" required>
        ${accounts.map(
          (a) =>
            html`<option value="${a.id}" ${a.id === chosen ? html`selected` : ''}>
              ${a.bankName} · ${maskIban(a.iban)}${a.active ? '' : ' (inactive)'}
            </option>`,
        )}
      </select></label
    >
    <label
      >Statement file <input type="file" name="file" required accept=".xml,.sta,.txt,.mt940,.csv" /><small>At most 10 MiB.</small></label
    >
    <label
      >Format
      <select name="format">
        <option value="">By the file's extension</option>
        <option value="camt">camt.053 (XML)</option>
        <option value="mt940">MT940</option>
        <option value="csv">CSV</option>
      </select></label
    >
    <div><button type="submit" class="btn primary">Import statement</button></div>
  </form>`;
}

/**
 * The transfers this import created: one transaction, so one `createdAt`, found among the transfers created while
 * the file was being imported (the ops API's answer counts them but does not list them).
 */
async function transfersOf(ops: OpsClient, result: StatementImport, started: Date, finished: Date): Promise<OpsBankTransfer[]> {
  const expected = result.matched + result.suggested + result.unmatched;
  if (expected === 0) return [];
  const createdFrom = new Date(started.getTime() - 2000).toISOString();
  const createdTo = new Date(finished.getTime() + 2000).toISOString();
  const groups = new Map<string, OpsBankTransfer[]>();
  for await (const t of ops.paginate('listBankTransfers', { createdFrom, createdTo, order: 'oldest' }, 5000)) {
    groups.set(t.createdAt, [...(groups.get(t.createdAt) ?? []), t]);
  }
  return [...groups.values()].find((g) => g.length === expected) ?? [];
}

async function withSuggestions(ops: OpsClient, transfers: OpsBankTransfer[]): Promise<Map<string, Suggestion[]>> {
  const out = new Map<string, Suggestion[]>();
  const open = transfers.filter((t) => t.status === 'UNMATCHED').slice(0, 100);
  for (let i = 0; i < open.length; i += 10) {
    const details = await Promise.all(
      open.slice(i, i + 10).map((t) => ops.call('getBankTransfer', { params: { bankTransferId: t.bankTransferId } })),
    );
    for (const d of details) out.set(d.bankTransferId, d.suggestions ?? []);
  }
  return out;
}

function resultSection(
  ctx: FormContext,
  result: StatementImport,
  transfers: OpsBankTransfer[],
  suggestions: Map<string, Suggestion[]>,
): SafeHtml {
  const counts: Array<[string, number]> = [
    ['Lines', result.lines],
    ['Created', result.created],
    ['Duplicates', result.duplicates],
    ['Matched', result.matched],
    ['Suggested', result.suggested],
    ['Unmatched', result.unmatched],
    ['Approved straight through', result.autoApproved],
  ];
  return html`<section class="card import-result" aria-labelledby="import-result">
    <h2 id="import-result">Imported ${result.format} statement ${result.statements.map((s) => s.reference).join(', ')}</h2>
    <dl class="counts">
      ${counts.map(
        ([label, n]) =>
          html`<div>
            <dt>${label}</dt>
            <dd>${String(n)}</dd>
          </div>`,
      )}
    </dl>
    ${result.created === 0 ? html`<p class="hint">Every line of this file was imported before; nothing changed.</p>` : ''}
    ${result.unmatched + result.suggested > 0 ? html`<p><a href="/bank-transfers?status=UNMATCHED">The unmatched queue →</a></p>` : ''}
    ${
      transfers.length
        ? table({
            columns: [
              {
                header: 'Bank tx id',
                cell: (t) => html`<a href="/bank-transfers/${seg(t.bankTransferId)}"><code>${t.bankTxId}</code></a>`,
              },
              { header: 'Received', cell: (t) => formatTime(t.receivedAt) },
              { header: 'Amount', class: 'num', cell: (t) => formatTry(t.amount) },
              { header: 'Sender', cell: (t) => t.senderName },
              { header: 'Description', cell: (t) => t.description },
              { header: 'Status', cell: (t) => statusBadge(t.status) },
              {
                header: 'Deposit, why',
                cell: (t) =>
                  html`${t.intentId ? html`<a href="/intents/${seg(t.intentId)}">deposit</a> ` : ''}${reasonBadges(t.matchReasons)}${suggestionList(
                    ctx,
                    t,
                    suggestions.get(t.bankTransferId) ?? [],
                  )}`,
              },
            ],
            rows: transfers,
            rowId: (t) => t.bankTransferId,
            empty: '',
          })
        : ''
    }
  </section>`;
}

/** `/statements`: a receiving account's statement file imported through the ops API, and what each line became. */
export function statementRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/statements', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    ctx.render('Import a statement', 'transfers', page(ctx, accounts, ''));
  });

  router.post('/statements', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    const body = req.body as Record<string, string>;
    const account = body.account ?? '';
    const upload = res.locals.upload as UploadedFile | undefined;
    const problem = (title: string, detail: string, status: number) =>
      ctx.render(
        'Import a statement',
        'transfers',
        page(
          ctx,
          accounts,
          account,
          html`<section class="error" role="alert">
            <h2>${title}</h2>
            <p>${detail}</p>
          </section>`,
        ),
        status,
      );
    if (!upload || upload.bytes.length === 0) return problem('Choose a statement file.', 'The form came without a file.', 400);
    const contentType = contentTypeOf(upload.filename, body.format ?? '');
    if (!contentType)
      return problem(
        'Which format is this file?',
        'Choose its format: the file name ends in none of .xml, .sta, .txt, .mt940 or .csv.',
        400,
      );
    const started = new Date();
    let result: StatementImport;
    try {
      result = await ctx.ops.upload<'importStatement'>(
        'importStatement',
        { params: { accountId: account } },
        { bytes: upload.bytes, contentType },
      );
    } catch (error) {
      if (!(error instanceof OpsApiError) || ![400, 404, 413, 415, 422].includes(error.status)) throw error;
      const where = error.fieldErrors.map((f) => `${f.field}: ${f.message}`).join('; ');
      if (error.status === 400) return problem(`The file cannot be read${where ? ` at ${where}` : ''}.`, error.detail, 400);
      if (error.status === 422) return problem('The statement was refused; nothing was imported.', error.detail, 422);
      return problem('The ledger did not take this file.', error.detail, error.status);
    }
    const transfers = await transfersOf(ctx.ops, result, started, new Date());
    const suggestions = await withSuggestions(ctx.ops, transfers);
    ctx.render('Import a statement', 'transfers', page(ctx, accounts, account, resultSection(ctx, result, transfers, suggestions)));
  });

  return router;
}

function page(ctx: FormContext, accounts: ReceivingAccount[], chosen: string, above: SafeHtml | '' = ''): SafeHtml {
  return html`${above}
    <p class="hint">
      A receiving account's statement as the bank delivered it (camt.053, MT940 or Kasa's CSV; docs/statements.md): each credit line becomes
      a transfer and is matched to a deposit; lines imported before are counted as duplicates and change nothing.
    </p>
    ${uploadForm(ctx, accounts, chosen)}`;
}
