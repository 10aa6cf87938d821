import express, { type Router } from 'express';
import { MATCH_REASONS, OPS_ROUTES, STATEMENT_FILE_FORMATS, type OpsResponse, type ReceivingAccount } from '@kasa/contracts';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { currentLocale, t, th, type MessageKey } from '../i18n/index.js';
import type { FormContext } from '../views/components.js';
import { formatBooked, formatTry, maskIban } from '../views/format.js';
import { html, type HtmlValue, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import type { UploadedFile } from './multipart.js';
import { pageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

type StatementImport = OpsResponse<'importStatement'>;

const MAX_MIB = OPS_ROUTES.importStatement.rawBody.maxBytes / (1024 * 1024);

/** Every file ending the formats have, for the file input's `accept`. */
const ACCEPTED = STATEMENT_FILE_FORMATS.flatMap((f) => f.extensions);

/**
 * The media type the ops API takes for a file, by the format chosen or else by its file name's ending. The formats,
 * their words and endings are @kasa/contracts' catalog, generated from @kasa/statements' registry (the console does not
 * load the parsers).
 */
export function contentTypeOf(filename: string, format: string): string | null {
  const chosen = STATEMENT_FILE_FORMATS.find((f) => f.choice === format);
  if (chosen) return chosen.uploadContentType;
  const name = filename.toLowerCase();
  return STATEMENT_FILE_FORMATS.find((f) => f.extensions.some((ext) => name.endsWith(ext)))?.uploadContentType ?? null;
}

function uploadForm(ctx: FormContext, accounts: ReceivingAccount[], chosen: string): SafeHtml {
  return html`<form method="post" action="/statements" enctype="multipart/form-data" class="grid-form card">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="/statements" />
    <label
      >${t('money.statements.account')}
      <select name="account" required>
        ${accounts.map(
          (a) =>
            html`<option value="${a.id}" ${a.id === chosen ? html`selected=""` : ''}>
              ${a.bankName} · ${maskIban(a.iban)}${a.active ? '' : t('money.statements.inactive')}
            </option>`,
        )}
      </select></label
    >
    <label
      >${t('money.statements.file')} <input type="file" name="file" required accept="${ACCEPTED.join(',')}" /><small
        >${t('money.statements.file.hint', { size: MAX_MIB })}</small
      ></label
    >
    <label
      >${t('money.statements.format')}
      <select name="format">
        <option value="">${t('money.statements.format.byExtension')}</option>
        ${STATEMENT_FILE_FORMATS.map((f) => html`<option value="${f.choice}">${f.choiceLabel}</option>`)}
      </select></label
    >
    <div><button type="submit" class="btn primary">${t('money.statements.import')}</button></div>
  </form>`;
}

type ImportedLine = StatementImport['lineOutcomes'][number];

type Outcome = ImportedLine['outcome'];

/**
 * Each outcome's tone, the one the console uses for it elsewhere. Its short badge (it must fit a phone's card) is the
 * message `money.statements.outcome.<outcome>`, and what it means, leading the line's reasons, `<...>.meaning`.
 */
const OUTCOME_TONES: Record<Outcome, string> = {
  approved: 'ok',
  matched: 'warn',
  suggested: 'info',
  unmatched: 'danger',
  known: 'muted',
  hand_entry_confirmed: 'ok',
  bank_line_difference: 'danger',
  payout_sent: 'ok',
  payout_returned: 'warn',
  debit: 'muted',
};

const badge = (outcome: Outcome) => t(`money.statements.outcome.${outcome}`);
const meaning = (outcome: Outcome) => t(`money.statements.outcome.${outcome}.meaning`);

/**
 * The ledger's reason codes for a line that the console has words for (docs/statements.md, "What the answer says of
 * each line"): matching's, the unmatched queue's, the straight-through rule's refusals and the other outcomes'.
 */
const REASON_CODES = new Set<string>([
  ...MATCH_REASONS,
  ...['no_reference', 'unknown_reference', 'ambiguous_reference', 'intent_closed'],
  ...['rule_off', 'not_exact_reference', 'amount_short', 'amount_over', 'above_max_amount', 'no_sender_label', 'sender_not_matched'],
  ...['known', 'hand_entry_confirmed', 'bank_line_difference', 'payout_sent', 'payout_returned', 'no_payout', 'reversal'],
  'approval_pending',
]);

/** The ledger's own words (English) on a page in another language, marked as English for readers and screen readers. */
const ledgerWords = (text: string): SafeHtml => html`<span lang="en">${text}</span>`;

/**
 * A reason in the operator's language. English pages show the ledger's own words; Turkish ones the words for its code,
 * and the ledger's words, marked English, for a code the console does not know. A skipped approval's cause is free
 * text (the decision an operator took meanwhile), shown as the ledger wrote it.
 */
export function reasonText(reason: ImportedLine['reasons'][number]): string | SafeHtml {
  if (currentLocale() === 'en') return reason.text;
  if (reason.code === 'approval_skipped') return th('money.reason.approval_skipped', { text: ledgerWords(reason.text) });
  return REASON_CODES.has(reason.code) ? t(`money.reason.${reason.code}` as MessageKey) : ledgerWords(reason.text);
}

/** The outcome's meaning, then the reasons the deciding code gave, as one sentence an operator reads. */
function why(line: ImportedLine): SafeHtml {
  const reasons = line.reasons.filter((r) => r.code !== line.outcome).map(reasonText);
  if (reasons.length === 0) return html`${meaning(line.outcome)}.`;
  return html`${meaning(line.outcome)}: ${reasons.map((r, i) => (i === 0 ? r : html`; ${r}`))}.`;
}

/** Where a statement of the file starts: `line 12` in the operator's language; any other place as the reader named it. */
function placeText(location: string): string {
  const line = /^line (\d+)$/.exec(location)?.[1];
  return line ? t('money.statements.location.line', { line }) : location;
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
            <span class="confidence" title="${t('money.statements.confidence.title')}"
              >${t('money.statements.confidence', { value: s.confidence })}</span
            >
          </li>`,
      )}
    </ul>`;
  }
  if (line.payout) {
    const href = line.payout.kind === 'withdrawal' ? `/withdrawals/${seg(line.payout.id)}` : `/payouts/${seg(line.payout.batchId)}`;
    return th('money.statements.payout.in', {
      record: html`<a href="${href}">${t(`money.statements.payout.${line.payout.kind}`)}</a>`,
      batch: html`<a href="/payouts/${seg(line.payout.batchId)}">${t('money.statements.payout.batch')}</a>`,
    });
  }
  return '—';
}

const lineColumns = (sites: SiteDirectory): Array<Column<ImportedLine>> => [
  { header: t('money.col.booked'), cell: (l) => formatBooked(l.bookedAt, l.timeKnown) },
  {
    header: t('money.statements.col.line'),
    cell: (l) =>
      l.bankTransferId
        ? html`<a href="/bank-transfers/${seg(l.bankTransferId)}"><code>${l.bankTxId}</code></a>`
        : html`<code>${l.bankTxId}</code>`,
  },
  { header: t('money.col.amount'), class: 'num', cell: (l) => formatTry(l.direction === 'debit' ? `-${l.amount}` : l.amount) },
  { header: t('money.col.counterparty'), cell: (l) => l.counterpartyName ?? '—' },
  {
    header: t('money.statements.col.outcome'),
    cell: (l) => html`<span class="badge ${OUTCOME_TONES[l.outcome]}">${badge(l.outcome)}</span>`,
  },
  { header: t('money.statements.col.why'), cell: why },
  { header: t('money.statements.col.where'), cell: (l) => whereTo(l, sites) },
];

function resultSection(result: StatementImport, sites: SiteDirectory): SafeHtml {
  const counts: Array<[MessageKey, number]> = [
    ['money.statements.count.lines', result.lines],
    ['money.statements.count.created', result.created],
    ['money.statements.count.duplicates', result.duplicates],
    ['money.statements.count.matched', result.matched],
    ['money.statements.count.suggested', result.suggested],
    ['money.statements.count.unmatched', result.unmatched],
    ['money.statements.count.autoApproved', result.autoApproved],
  ];
  const references = result.statements.map((s) => s.reference).join(', ');
  return html`<section class="card import-result" aria-labelledby="import-result">
    <h2 id="import-result">${t('money.statements.imported', { format: result.format, references })}</h2>
    <dl class="counts">
      ${counts.map(
        ([label, n]) =>
          html`<div>
            <dt>${t(label)}</dt>
            <dd>${String(n)}</dd>
          </div>`,
      )}
    </dl>
    ${refusedNotice(result)} ${result.created === 0 ? html`<p class="hint">${t('money.statements.nothingNew')}</p>` : ''}
    ${
      result.unmatched + result.suggested > 0
        ? html`<p><a href="/bank-transfers?status=UNMATCHED">${t('money.statements.unmatchedQueue')}</a></p>`
        : ''
    }
    <h3>${t('money.statements.lines.title')}</h3>
    ${table({ columns: lineColumns(sites), rows: result.lineOutcomes, rowId: (l) => l.lineKey, empty: t('money.statements.lines.empty') })}
    ${
      result.lineOutcomesOmitted > 0
        ? html`<p class="hint">
            ${t('money.statements.lines.omitted', { shown: result.lineOutcomes.length, more: result.lineOutcomesOmitted })}
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
      ${th('money.statements.refused', {
        label: html`<strong>${t('money.statements.refused.label')}</strong>`,
        count: result.refusedStatements.length,
      })}
    </p>
    <ul>
      ${result.refusedStatements.map(
        (r) => html`<li><code>${r.statementId}</code> (${placeText(r.location)}): <span lang="en">${r.reason}</span></li>`,
      )}
    </ul>
  </div>`;
}

/** `/statements`: a receiving account's statement file imported through the ops API, and what each line became. */
export function statementRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/statements', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    ctx.render(t('money.statements.title'), 'transfers', page(ctx, accounts, ''));
  });

  router.post('/statements', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    const body = req.body as Record<string, string>;
    const account = body.account ?? '';
    const upload = res.locals.upload as UploadedFile | undefined;
    const problem = (title: HtmlValue, detail: SafeHtml, status: number) =>
      ctx.render(
        t('money.statements.title'),
        'transfers',
        page(
          ctx,
          accounts,
          account,
          html`<section class="error" role="alert">
            <h2>${title}</h2>
            ${detail}
          </section>`,
        ),
        status,
      );
    if (!upload || upload.bytes.length === 0)
      return problem(t('money.statements.error.noFile'), html`<p>${t('money.statements.error.noFile.detail')}</p>`, 400);
    const contentType = contentTypeOf(upload.filename, body.format ?? '');
    if (!contentType) {
      const extensions = ACCEPTED.join(', ');
      return problem(t('money.statements.error.format'), html`<p>${t('money.statements.error.format.detail', { extensions })}</p>`, 400);
    }
    let result: StatementImport;
    try {
      result = await ctx.ops.upload<'importStatement'>(
        'importStatement',
        { params: { accountId: account } },
        { bytes: upload.bytes, contentType },
      );
    } catch (error) {
      if (!(error instanceof OpsApiError) || ![400, 404, 413, 415, 422].includes(error.status)) throw error;
      // Where, in the operator's language; what the reader found there, in its own words.
      const where = error.fieldErrors.map((f, i) => html`${i === 0 ? '' : '; '}${placeText(f.field)}: ${ledgerWords(f.message)}`);
      if (error.status === 400) {
        const title = where.length
          ? th('money.statements.error.unreadableAt', { where: html`${where}` })
          : t('money.statements.error.unreadable');
        return problem(title, ledgerDetail(error), 400);
      }
      if (error.status === 422) return problem(t('money.statements.error.rejected'), ledgerDetail(error), 422);
      return problem(t('money.statements.error.refused'), ledgerDetail(error), error.status);
    }
    const sites = await siteDirectory(ctx.ops);
    ctx.render(t('money.statements.title'), 'transfers', page(ctx, accounts, account, resultSection(result, sites)));
  });

  return router;
}

/**
 * The ledger's explanation of a file it refused: its own words on an English page. A Turkish page has words for the
 * codes whose explanation is fixed; a refused statement's (`statement_rejected`) names the statement, its account or
 * its balances in the ledger's free text, quoted as it came and marked English, as is a refusal without a field.
 */
function ledgerDetail(error: OpsApiError): SafeHtml {
  if (currentLocale() === 'en') return html`<p>${error.detail}</p>`;
  const ours = (key: MessageKey, params = {}) => html`<p>${t(key, params)}</p>`;
  if (error.code === 'validation_failed' && error.fieldErrors.length > 0) return ours('money.statements.error.unreadable.detail');
  if (error.code === 'not_found') return ours('money.accounts.notFound');
  if (error.code === 'payload_too_large') return ours('money.statements.error.tooLarge', { size: MAX_MIB });
  if (error.code === 'unsupported_media_type') return ours('money.statements.error.mediaType');
  return html`<div class="ledger-said">
    <p>${t('errors.ledger.said')}</p>
    <p lang="en">${error.detail}</p>
  </div>`;
}

function page(ctx: FormContext, accounts: ReceivingAccount[], chosen: string, above: SafeHtml | '' = ''): SafeHtml {
  return html`${above}
    <p class="hint">${t('money.statements.hint')}</p>
    ${uploadForm(ctx, accounts, chosen)}`;
}
