/** How kasa prints: aligned tables for people, one JSON document for scripts (`--json`). */
import { formatLira } from '@kasa/money';
import { withTimes, type TimeFormat } from './times.js';

export interface Writer {
  write(chunk: string): unknown;
}

export interface Io {
  stdout: Writer;
  stderr: Writer & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
  /** Asks the person at the terminal (the second-factor code); absent when stdin is not a terminal. */
  prompt?: (question: string) => Promise<string>;
}

/** Minor units as people read lira: 150000 -> "1.500,00", the form the console shows and amount flags take. */
export const formatAmount = (minor: string | null | undefined): string => formatLira(minor);

/** Prints rows as a table with the given columns; each column is a header and a cell function. */
export function printTable<T>(out: Writer, rows: T[], columns: Array<[string, (row: T) => string | number | null | undefined]>): void {
  if (rows.length === 0) {
    out.write('(none)\n');
    return;
  }
  const cells = rows.map((row) => columns.map(([, cell]) => String(cell(row) ?? '')));
  const widths = columns.map(([header], i) => Math.max(header.length, ...cells.map((line) => (line[i] as string).length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd() + '\n';
  out.write(line(columns.map(([header]) => header)));
  for (const row of cells) out.write(line(row));
}

/** Prints `key: value` lines for one record, its times (at any depth) written by `time` (ctx.time). */
export function printRecord(out: Writer, record: object, time: TimeFormat): void {
  const shownRecord = withTimes(record, time) as Record<string, unknown>;
  const width = Math.max(...Object.keys(shownRecord).map((key) => key.length));
  for (const [key, value] of Object.entries(shownRecord)) {
    const shown = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    out.write(`${key.padEnd(width)}  ${shown}\n`);
  }
}

export function printJson(out: Writer, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}
