import type { Request, Response } from 'express';

/** One cell before it is written: text, a number, a yes/no, or nothing (an empty cell). */
export type CsvCell = string | number | boolean | null | undefined;

/**
 * Whether text opens with a character a spreadsheet reads as the start of a formula (or, with tab and CR, slips a
 * formula past a trimming import): `=`, `+`, `-`, `@`, tab, CR. A cell that does is prefixed with `'`, so a partner's
 * user label such as `=HYPERLINK(...)` is shown as text, never run (OWASP "CSV injection"). By character code: every
 * cell of an export is asked.
 */
function opensFormula(text: string): boolean {
  const first = text.charCodeAt(0);
  return first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40 || first === 0x09 || first === 0x0d;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** A cell as RFC 4180 writes it: quoted (inner quotes doubled) when it holds a comma, a quote or a line break. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  // Numbers are the file's own figures (a negative balance is data, not a formula); only text is defended.
  const safe = typeof value === 'string' ? (opensFormula(value) ? `'${value}` : value) : String(value);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record of the file, CRLF-terminated as RFC 4180 has it. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Kuruş digits as lira with a dot decimal and no grouping (`123450` -> `1234.50`, `-5` -> `-0.05`): the form a
 * spreadsheet in any locale reads as a number. Computed on bigint, so no amount loses a kuruş. Null stays empty.
 */
export function liraDecimal(kurus: string | null | undefined): string {
  if (kurus === null || kurus === undefined || !/^-?\d+$/.test(kurus)) return '';
  // Up to 15 digits the amount is a safe integer: the same digits from number arithmetic, without a bigint per cell.
  if (kurus.length <= 15) {
    const abs = Math.abs(Number(kurus));
    const cents = abs % 100;
    return `${kurus.charCodeAt(0) === 0x2d && abs !== 0 ? '-' : ''}${(abs - cents) / 100}.${cents < 10 ? '0' : ''}${cents}`;
  }
  const value = BigInt(kurus);
  const abs = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** `kasa-intents-20261126T101500Z.csv`: the list and the UTC second it was asked for. */
export function csvFilename(list: string, now: Date): string {
  return `kasa-${list}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}.csv`;
}

/** True when the caller asked for CSV before JSON (`Accept: text/csv`); JSON stays the default for any other Accept. */
export function wantsCsv(req: Request): boolean {
  return req.accepts(['application/json', 'text/csv']) === 'text/csv';
}

/**
 * Streams a CSV file: the header row, then each batch of records `batches` yields (CSV text, each record
 * CRLF-terminated as {@link csvLine} writes it), as it comes. A batch is written
 * only once the socket has taken the previous one (`drain`), so a slow reader holds the export back instead of
 * letting rows pile up in memory; a reader that goes away stops it before the next batch is read.
 *
 * The status and headers are sent with the header row: a caller checks the request first (a bad filter is a 400
 * with no CSV). A failure after that cannot become an error answer, so the response is cut off (the client sees
 * an incomplete transfer, never a file that looks whole) and the error is rethrown for the error middleware.
 */
export async function streamCsv(
  res: Response,
  file: { name: string; header: readonly string[] },
  batches: AsyncIterable<string>,
): Promise<void> {
  try {
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
    if (!(await written(res, csvLine(file.header)))) return;
    for await (const records of batches) {
      // The reader went away (a closed tab, a cancelled download): no further page is read.
      if (records.length > 0 && !(await written(res, records))) return;
    }
    res.end();
  } catch (error) {
    res.destroy();
    throw error;
  }
}

/** Writes `chunk`; when the socket's buffer is full, waits until it drains or the client is gone (false). */
function written(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const drained = () => settle(true);
    const closed = () => settle(false);
    const settle = (open: boolean) => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(open);
    };
    res.on('drain', drained);
    res.on('close', closed);
  });
}
