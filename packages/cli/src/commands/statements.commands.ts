import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { OpsResponse } from '@kasa/contracts';
import type { Context } from '../context.js';
import { formatAmount, printTable } from '../output.js';
import { bookedTime, type TimeFormat } from '../times.js';

/** The media type the ledger reads each statement format as (docs/statements.md; held to @kasa/statements' registry). */
export const FORMAT_TYPES = { camt: 'application/xml', mt940: 'text/plain', csv: 'text/csv' } as const;
type StatementFormat = keyof typeof FORMAT_TYPES;

/** A file's format by its extension: camt.053 is XML, MT940 files are `.sta`, `.mt940`, `.940` or `.txt`. */
export const EXTENSION_FORMATS: Record<string, StatementFormat> = {
  '.xml': 'camt',
  '.camt': 'camt',
  '.053': 'camt',
  '.sta': 'mt940',
  '.mt940': 'mt940',
  '.940': 'mt940',
  '.txt': 'mt940',
  '.csv': 'csv',
};

function formatOption(text: string): StatementFormat {
  const format = text.toLowerCase();
  if (!Object.hasOwn(FORMAT_TYPES, format)) throw new InvalidArgumentError('must be camt, mt940 or csv');
  return format as StatementFormat;
}

/** The format given, or the file's by its extension; an unknown extension needs `--format`. */
function formatOf(file: string, given: StatementFormat | undefined): StatementFormat {
  if (given) return given;
  const byExtension = EXTENSION_FORMATS[extname(file).toLowerCase()];
  if (!byExtension) throw new Error(`cannot tell the format of ${file} from its extension; give --format camt, mt940 or csv`);
  return byExtension;
}

/** Bank statements: importing a receiving account's statement file, and reconciling the accounts against them. */
export function registerStatementCommands(program: Command, ctx: Context): void {
  const statements = program.command('statements').description("a receiving account's bank statements");
  statements
    .command('import <file>')
    .description("import a receiving account's statement file (camt.053, MT940 or CSV); lines imported before change nothing")
    .requiredOption('--account <accountId>', 'the id of the receiving account the statement is of')
    .option('--format <format>', 'camt, mt940 or csv; default by the file extension (.xml, .sta/.mt940/.txt, .csv)', formatOption)
    .action(async (file: string, o: { account: string; format?: StatementFormat }) => {
      const format = formatOf(file, o.format);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      const imported = await ctx
        .client()
        .upload('importStatement', { params: { accountId: o.account } }, { bytes, contentType: FORMAT_TYPES[format] });
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
