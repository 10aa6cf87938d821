import type { OpsCsvFile, OpsCsvFileOperationId, OpsCsvOperationId, Query } from '@kasa/ops-client';
import type { Context } from './context.js';
import type { Writer } from './output.js';

/** The help of `--csv` on a list command: every matching row as the ledger's CSV file, instead of a table of `--limit` rows. */
export const CSV_OPTION_HELP = 'print every matching row as CSV (streamed from the ledger; --limit and --json are ignored)';

/** A writer that may say it is full (`write` false) and when it has room again: process.stdout does. */
type DrainableWriter = Writer & { once?: (event: 'drain', listener: () => void) => unknown };

/**
 * Streams a list's CSV file (docs/operations.md, CSV export) to stdout as the ledger sends it, chunk by chunk:
 * a 100,000-row export is never held whole, and a full pipe (`kasa ... --csv | slow-consumer`) holds the
 * download back until it drains. A refused filter throws before anything is printed.
 */
export async function printCsv(ctx: Context, operationId: OpsCsvOperationId, query: Query): Promise<void> {
  await writeCsv(ctx, await ctx.client().exportCsv(operationId, query));
}

/** Streams a CSV file of its own (the risk report for the authority) to stdout as {@link printCsv} streams a list's. */
export async function printCsvFile(ctx: Context, operationId: OpsCsvFileOperationId, query: Query): Promise<void> {
  await writeCsv(ctx, await ctx.client().csvFile(operationId, query));
}

async function writeCsv(ctx: Context, file: OpsCsvFile): Promise<void> {
  const out: DrainableWriter = ctx.io.stdout;
  const decoder = new TextDecoder();
  const reader = file.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // `stream: true` keeps a character split across two chunks (ş, ğ, ı) whole.
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (text && out.write(text) === false && out.once) await new Promise<void>((resolve) => out.once?.('drain', resolve));
      if (done) return;
    }
  } finally {
    // Ends the download when the loop stopped early (stdout failed): the ledger then stops reading pages.
    await reader.cancel().catch(() => undefined);
  }
}
