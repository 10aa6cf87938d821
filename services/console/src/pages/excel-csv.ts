/**
 * The "Excel (Türkiye)" variant of a list's CSV file, rewritten from the ledger's machine file as it streams through:
 * Excel in a Turkish locale splits a CSV on `;` (the `,` is its decimal mark), reads `1500,00` as a number (no digit
 * grouping, which it would take for text) and `28.11.2026 14:05:03` as a date and time. So: `;` between cells, lira
 * with a comma decimal in the `*_try` columns, the instants of the `*_at` and `*_since` columns in the desk's time
 * zone to the second, CRLF line ends; the console adds the byte-order mark. Every other cell is kept as the ledger
 * wrote it, the `'` before a cell that would start a formula included; the writer guards again, so the variant is safe
 * on its own.
 */
import { Transform } from 'node:stream';
import { formatLocalTime } from '@kasa/money';

/** How a column's cells are rewritten, by the column's name in the machine file (docs/operations.md, CSV export). */
type ColumnKind = 'lira' | 'instant' | 'text';

const kindOf = (header: string): ColumnKind => (header.endsWith('_try') ? 'lira' : /_(at|since)$/.test(header) ? 'instant' : 'text');

/** What a spreadsheet runs as a formula when a cell starts with it (as the ledger's src/shared/csv.ts). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The machine file's lira (`1234.50`, `-0.05`) and instants (`2026-11-28T11:05:03.120Z`). */
const LIRA = /^-?\d+\.\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One text cell of the variant: quoted when it holds `;`, a quote or a line break; one that would run as a formula is guarded. */
function excelText(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Reads RFC 4180 records from text given in pieces (a quote, or a CR LF, may be split between two): each call to
 * `push` returns the records it completed.
 */
class CsvRecords {
  private field = '';
  private record: string[] = [];
  private state: 'plain' | 'quoted' | 'quote-in-quoted' = 'plain';

  push(text: string): string[][] {
    const done: string[][] = [];
    for (const c of text) {
      if (this.state === 'quoted') {
        if (c === '"') this.state = 'quote-in-quoted';
        else this.field += c;
        continue;
      }
      if (this.state === 'quote-in-quoted') {
        this.state = c === '"' ? 'quoted' : 'plain';
        if (c === '"') {
          this.field += '"';
          continue;
        }
      }
      if (c === '"') this.state = 'quoted';
      else if (c === ',') this.endField();
      else if (c === '\n') done.push(this.endRecord());
      // The machine file quotes any cell holding a CR, so a bare one is the CR of a CR LF.
      else if (c !== '\r') this.field += c;
    }
    return done;
  }

  /** The last record, when the file does not end with a line break. */
  end(): string[][] {
    return this.field !== '' || this.record.length > 0 ? [this.endRecord()] : [];
  }

  private endField(): void {
    this.record.push(this.field);
    this.field = '';
  }

  private endRecord(): string[] {
    this.endField();
    const record = this.record;
    this.record = [];
    return record;
  }
}

/**
 * A stream that takes the ledger's machine CSV (UTF-8 bytes, header row first) and gives the Excel (Türkiye) variant,
 * record by record, so a 100,000-row export is never held whole and backpressure passes through.
 */
export function toExcelTurkiye(timeZone: string): Transform {
  const reader = new CsvRecords();
  const decoder = new TextDecoder();
  // `dd.mm.yyyy hh:mm:ss` in the desk's zone, as every time on the console.
  const localTime = (iso: string) => formatLocalTime(new Date(iso), timeZone);
  let kinds: ColumnKind[] | null = null;

  const line = (cells: string[]): string => {
    const header = kinds === null;
    kinds ??= cells.map(kindOf);
    const columns = kinds;
    const written = cells.map((cell, i) => {
      const kind = header ? 'text' : (columns[i] ?? 'text');
      // A number and a time are written for Excel to read as such; anything else is text, guarded.
      if (kind === 'lira' && LIRA.test(cell)) return cell.replace('.', ',');
      if (kind === 'instant' && INSTANT.test(cell)) return localTime(cell);
      return excelText(cell);
    });
    return `${written.join(';')}\r\n`;
  };

  // Nothing to pass on until a record is complete (an empty push would be read as a chunk of nothing).
  const written = (lines: string[]) => (lines.length > 0 ? lines.join('') : undefined);

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // `stream: true` keeps a character split across two chunks (ş, ğ, ı) whole.
      callback(null, written(reader.push(decoder.decode(chunk, { stream: true })).map(line)));
    },
    flush(callback) {
      callback(null, written([...reader.push(decoder.decode()), ...reader.end()].map(line)));
    },
  });
}
