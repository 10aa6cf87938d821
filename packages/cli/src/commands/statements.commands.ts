import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { STATEMENT_FILE_FORMATS, type OpsResponse, type StatementFileFormat } from '@kasa/contracts';
import type { Context } from '../context.js';
import { formatAmount, printTable } from '../output.js';
import { bookedTime, type TimeFormat } from '../times.js';

// The formats, their `--format` words, the media type the ledger reads each as and their file endings are
// @kasa/contracts' catalog, generated from @kasa/statements' registry (the CLI does not load the parsers): a new format
// is offered here without an edit.
const inWords = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`);
const CHOICES_TEXT = inWords(STATEMENT_FILE_FORMATS.map((f) => f.choice));
const FORMATS_TEXT = inWords(STATEMENT_FILE_FORMATS.map((f) => f.label));
const ENDINGS_TEXT = STATEMENT_FILE_FORMATS.map((f) => f.extensions.join('/')).join(', ');

function formatOption(text: string): StatementFileFormat {
  const chosen = STATEMENT_FILE_FORMATS.find((f) => f.choice === text.toLowerCase());
  if (!chosen) throw new InvalidArgumentError(`must be ${CHOICES_TEXT}`);
  return chosen;
}

/** The format given, or the file's by its extension; an unknown extension needs `--format`. */
export function statementFormatOf(file: string, given?: StatementFileFormat): StatementFileFormat {
  if (given) return given;
  const ending = extname(file).toLowerCase();
  const byExtension = STATEMENT_FILE_FORMATS.find((f) => f.extensions.some((ext) => ext === ending));
  if (!byExtension) throw new Error(`cannot tell the format of ${file} from its extension; give --format ${CHOICES_TEXT}`);
  return byExtension;
}

/** Bank statements: importing a receiving account's statement file, and reconciling the accounts against them. */
export function registerStatementCommands(program: Command, ctx: Context): void {
  const statements = program.command('statements').description("a receiving account's bank statements");
  statements
    .command('import <file>')
    .description(`import a receiving account's statement file (${FORMATS_TEXT}); lines imported before change nothing`)
    .requiredOption('--account <accountId>', 'the id of the receiving account the statement is of')
    .option('--format <format>', `${CHOICES_TEXT}; default by the file extension (${ENDINGS_TEXT})`, formatOption)
    .action(async (file: string, o: { account: string; format?: StatementFileFormat }) => {
      const format = statementFormatOf(file, o.format);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      const imported = await ctx
        .client()
        .upload('importStatement', { params: { accountId: o.account } }, { bytes, contentType: format.uploadContentType });
      ctx.emit(imported, () => {
        const out = ctx.io.stdout;
        out.write(
          `Imported ${imported.format} statement ${imported.statements.map((s) => s.reference).join(', ')}: ${imported.lines} lines, ` +
            `${imported.created} new, ${imported.duplicates} imported before.\n`,
        );
        out.write(
          `Transfers: ${imported.matched} matched, ${imported.suggested} with a suggestion, ${imported.unmatched} unmatched; ` +
            `${imported.autoApproved} deposits approved straight through.\n`,
        );
        if (imported.unmatched + imported.suggested > 0)
          out.write('Review the unmatched ones with: kasa transfers list --status UNMATCHED\n');
      });
    });

  statements
    .command('reconcile')
    .description("each receiving account's last statement balance against what Kasa booked; exits 1 on a difference or a gap")
    .option('--account <accountId>', 'only this receiving account, with the lines no statement carries')
    .action(async (o: { account?: string }) => {
      const client = ctx.client();
      const rows = o.account
        ? [await client.call('getReconciliation', { params: { accountId: o.account } })]
        : (await client.call('listReconciliations')).data;
      ctx.emit(rows, () => {
        const out = ctx.io.stdout;
        printTable(out, rows, [
          ['ACCOUNT ID', (r) => r.accountId],
          ['BANK', (r) => r.bankName],
          ['STATEMENT (TRY)', (r) => formatAmount(r.statementClosingBalance) || '-'],
          ['BOOKED (TRY)', (r) => formatAmount(r.bookedBalance) || '-'],
          ['DIFFERENCE (TRY)', (r) => formatAmount(r.difference) || '-'],
          ['AS OF', (r) => (r.asOf ? ctx.time(r.asOf) : r.reason)],
          ['UNCONFIRMED', (r) => r.unconfirmedTotal],
          ['GAPS', (r) => r.gaps.length],
        ]);
        if (o.account) for (const r of rows) printDetail(out, r, ctx.time);
      });
      if (rows.some((r) => r.status === 'difference' || r.gaps.length > 0)) ctx.exitCode = 1;
    });
}

/** One account's unconfirmed lines and gaps, the places to look for a difference. */
function printDetail(out: Context['io']['stdout'], r: OpsResponse<'getReconciliation'>, time: TimeFormat): void {
  if (r.unconfirmedTotal > 0) {
    out.write(
      `\nLines no statement carries (${r.unconfirmedTotal}${r.unconfirmedTotal > r.unconfirmedLines.length ? `, first ${r.unconfirmedLines.length}` : ''}):\n`,
    );
    printTable(out, r.unconfirmedLines, [
      ['BOOKED', (l) => bookedTime(time, l.bookedAt, l.timeKnown)],
      ['DIRECTION', (l) => l.direction],
      ['BANK TX ID', (l) => l.bankTxId],
      ['AMOUNT (TRY)', (l) => formatAmount(l.amount)],
      ['COUNTERPARTY', (l) => l.counterpartyName],
    ]);
  }
  for (const g of r.gaps) {
    out.write(
      `\nGap: ${g.afterStatementRef} closed at ${formatAmount(g.closingBalance)}, ${g.beforeStatementRef} opened at ${formatAmount(g.openingBalance)} ` +
        `(${formatAmount(g.difference)} TRY uncovered).\n`,
    );
  }
}
