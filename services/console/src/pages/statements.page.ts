import express, { type Router } from 'express';
import type { OpsResponse, ReceivingAccount } from '@kasa/contracts';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import type { FormContext } from '../views/components.js';
import { formatBooked, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import type { UploadedFile } from './multipart.js';
import { pageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

type StatementImport = OpsResponse<'importStatement'>;

/**
 * The formats an operator can pick, with the media type the ops API takes each as, and the file endings that name
 * them. They follow @kasa/statements' format registry (packages/statements/test/format-consumers.test.ts holds them to it).
 */
export const STATEMENT_FILE_FORMATS = [
  { choice: 'camt', label: 'camt.053 (XML)', contentType: 'application/xml', extensions: ['.xml', '.camt', '.053'] },
  { choice: 'mt940', label: 'MT940', contentType: 'text/plain', extensions: ['.sta', '.mt940', '.940', '.txt'] },
  { choice: 'csv', label: "Kasa's CSV", contentType: 'text/csv', extensions: ['.csv'] },
] as const;

const ACCEPTED = STATEMENT_FILE_FORMATS.flatMap((f) => f.extensions);

/** The media type the ops API takes for a file, by the format chosen or else by its file name's ending. */
export function contentTypeOf(filename: string, format: string): string | null {
  const chosen = STATEMENT_FILE_FORMATS.find((f) => f.choice === format);
  if (chosen) return chosen.contentType;
  const name = filename.toLowerCase();
  return STATEMENT_FILE_FORMATS.find((f) => f.extensions.some((ext) => name.endsWith(ext)))?.contentType ?? null;
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
    <label>Statement file <input type="file" name="file" required accept="${ACCEPTED.join(',')}" /><small>At most 10 MiB.</small></label>
    <label
      >Format
      <select name="format">
        <option value="">By the file's extension</option>
        ${STATEMENT_FILE_FORMATS.map((f) => html`<option value="${f.choice}">${f.label}</option>`)}
      </select></label
    >
    <div><button type="submit" class="btn primary">Import statement</button></div>
  </form>`;
}

type ImportedLine = StatementImport['lineOutcomes'][number];

/**
 * Each outcome as a short badge (it must fit a phone's card) in the tone the console uses for it elsewhere, and what
 * it means, leading the line's reasons.
 */
const OUTCOMES: Record<ImportedLine['outcome'], [badge: string, tone: string, meaning: string]> = {
  approved: ['approved', 'ok', 'Approved straight through'],
  matched: ['matched', 'warn', 'Paid its deposit, which waits for an operator'],
  suggested: ['suggested', 'info', 'Unmatched; a near reference names the deposits on the right'],
  unmatched: ['unmatched', 'danger', 'In the unmatched queue'],
  known: ['known', 'muted', 'Imported before'],
  hand_entry_confirmed: ['confirmed', 'ok', 'The bank confirms a transfer recorded by hand'],
  bank_line_difference: ['differs', 'danger', 'Differs from a transfer recorded by hand'],
  payout_sent: ['payout sent', 'ok', 'A batched payout left the account'],
  payout_returned: ['returned', 'warn', 'A sent withdrawal came back'],
  debit: ['debit', 'muted', 'Money out'],
};

/** The outcome's meaning, then the reasons the deciding code gave, as one sentence an operator reads. */
function why(line: ImportedLine): string {
  const reasons = line.reasons.filter((r) => r.code !== line.outcome).map((r) => r.text);
  return `${OUTCOMES[line.outcome][2]}${reasons.length ? `: ${reasons.join('; ')}` : ''}.`;
}

/** Where the line went: its deposit (by reference, with its site), the deposits suggested, or the payout. */
function whereTo(line: ImportedLine, sites: SiteDirectory): SafeHtml | string {
  if (line.deposit) {
    return html`<a href="/intents/${seg(line.deposit.depositId)}"><code>${line.deposit.referenceNo}</code></a> ·
      ${siteLink(sites, line.deposit.siteId)}`;
  }
  if (line.suggestions.length) {
    return html`<ul class="suggestions">
      ${line.suggestions.map(
        (s) =>
          html`<li>
            <a href="/intents/${seg(s.depositId)}"><code>${s.referenceNo}</code></a>
            <span class="confidence" title="How sure the matcher is">${s.confidence} %</span>
          </li>`,
      )}
    </ul>`;
  }
  if (line.payout) {
    const href = line.payout.kind === 'withdrawal' ? `/withdrawals/${seg(line.payout.id)}` : `/payouts/${seg(line.payout.batchId)}`;
    return html`<a href="${href}">${line.payout.kind === 'withdrawal' ? 'withdrawal' : 'sender return'}</a> in
      <a href="/payouts/${seg(line.payout.batchId)}">its payout batch</a>`;
  }
  return '—';
}

const lineColumns = (sites: SiteDirectory): Array<Column<ImportedLine>> => [
  { header: 'Booked', cell: (l) => formatBooked(l.bookedAt, l.timeKnown) },
  {
    header: 'Line',
    cell: (l) =>
      l.bankTransferId
        ? html`<a href="/bank-transfers/${seg(l.bankTransferId)}"><code>${l.bankTxId}</code></a>`
        : html`<code>${l.bankTxId}</code>`,
  },
  { header: 'Amount', class: 'num', cell: (l) => formatTry(l.direction === 'debit' ? `-${l.amount}` : l.amount) },
  { header: 'Counterparty', cell: (l) => l.counterpartyName ?? '—' },
  {
    header: 'Outcome',
    cell: (l) => html`<span class="badge ${OUTCOMES[l.outcome][1]}">${OUTCOMES[l.outcome][0]}</span>`,
  },
  { header: 'Why', cell: why },
  { header: 'Deposit or payout', cell: (l) => whereTo(l, sites) },
];

function resultSection(result: StatementImport, sites: SiteDirectory): SafeHtml {
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
    ${refusedNotice(result)}
    ${result.created === 0 ? html`<p class="hint">Every line of this file was imported before; nothing changed.</p>` : ''}
    ${result.unmatched + result.suggested > 0 ? html`<p><a href="/bank-transfers?status=UNMATCHED">The unmatched queue →</a></p>` : ''}
    <h3>Each line, and why it went where it went</h3>
    ${table({ columns: lineColumns(sites), rows: result.lineOutcomes, rowId: (l) => l.lineKey, empty: 'The file has no lines.' })}
    ${
      result.lineOutcomesOmitted > 0
        ? html`<p class="hint">
            Showing the first ${String(result.lineOutcomes.length)} lines; ${String(result.lineOutcomesOmitted)} more are counted above, not
            listed.
          </p>`
        : ''
    }
  </section>`;
}

/** Statements of the file the reader set aside: named, with where and why, so the operator can ask the bank for them. */
function refusedNotice(result: StatementImport): SafeHtml | string {
  if (result.refusedStatements.length === 0) return '';
  return html`<div class="warn" role="alert">
    <p>
      <strong>Imported in part:</strong> ${String(result.refusedStatements.length)} statement(s) of this file could not be read, and nothing
      of them was imported. Ask the bank for them, then import the mended file: the lines imported now are recognised and not counted twice.
    </p>
    <ul>
      ${result.refusedStatements.map((r) => html`<li><code>${r.statementId}</code> (${r.location}): ${r.reason}</li>`)}
    </ul>
  </div>`;
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
      return problem('Which format is this file?', `Choose its format: the file name ends in none of ${ACCEPTED.join(', ')}.`, 400);
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
    const sites = await siteDirectory(ctx.ops);
    ctx.render('Import a statement', 'transfers', page(ctx, accounts, account, resultSection(result, sites)));
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
