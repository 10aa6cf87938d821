import { CsvError, parse } from 'csv-parse/sync';
import { ScreeningListError, tidy, type EntryKind, type EntryName, type ListEntry, type ParsedList } from './list-entry.js';

/** The columns of a national list CSV, all required in the header (in any order); values may be empty except id, kind, name. */
export const NATIONAL_LIST_COLUMNS = ['id', 'kind', 'name', 'aliases', 'program', 'listed_on', 'birth_date', 'nationality'] as const;
type Column = (typeof NATIONAL_LIST_COLUMNS)[number];

/** Separates several values in one field (aliases, birth dates, nationalities). */
const SEPARATOR = ';';
const KINDS: Record<string, EntryKind> = { individual: 'individual', entity: 'entity' };

export interface NationalListOptions {
  /** The entries' and version's `source`, e.g. `tr-masak-6415`; `national-list` unless given. */
  source?: string;
  /** When the list was published, if the caller knows (a CSV carries no such field). */
  generated?: string;
}

/**
 * Reads a national sanctions or asset-freeze list kept as CSV (for example Turkey's decisions under Laws 6415 and
 * 7262, which MASAK publishes as tables): RFC 4180, UTF-8 with or without a BOM, a header row naming the columns of
 * {@link NATIONAL_LIST_COLUMNS}, one entry a row. `aliases`, `birth_date` and `nationality` hold several values
 * separated by `;`. Dates are `YYYY-MM-DD` (or `DD.MM.YYYY`, as Turkish tables write them); a birth date may be
 * `YYYY-MM` or `YYYY` alone. Every refusal is a {@link ScreeningListError} at `line N` of the file.
 */
export function parseNationalListCsv(text: string, options: NationalListOptions = {}): ParsedList {
  const source = options.source ?? 'national-list';
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's types do not follow `info: true`, which turns each row into { record, info } (its documented shape).
    rows = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof rows;
  } catch (error) {
    if (error instanceof CsvError) throw new ScreeningListError(`not RFC 4180 CSV: ${error.message}`, `line ${String(error.lines)}`);
    throw error;
  }
  const [header, ...records] = rows;
  if (!header) throw new ScreeningListError(`is empty; expected a header row: ${NATIONAL_LIST_COLUMNS.join(',')}`, 'line 1');
  const index = columnsOf(header.record);
  const seen = new Map<string, number>();
  const entries = records.map(({ record, info }): ListEntry => {
    const where = `line ${info.lines}`;
    if (record.length !== header.record.length) {
      throw new ScreeningListError(`row has ${record.length} fields, the header ${header.record.length}`, where);
    }
    const cell = (column: Column) => tidy(record[index.get(column) ?? -1] ?? '');
    const list = (column: Column) => [
      ...new Set(
        cell(column)
          .split(SEPARATOR)
          .map(tidy)
          .filter((value) => value !== ''),
      ),
    ];
    const id = cell('id');
    if (!id) throw new ScreeningListError('id is empty', where);
    const first = seen.get(id);
    if (first !== undefined) throw new ScreeningListError(`id ${JSON.stringify(id)} is used again (first at line ${first})`, where);
    seen.set(id, info.lines);
    const kind = KINDS[cell('kind').toLowerCase()];
    if (!kind) throw new ScreeningListError(`kind ${JSON.stringify(cell('kind'))} is not individual or entity`, where);
    const name = cell('name');
    if (!name) throw new ScreeningListError('name is empty', where);
    const names: EntryName[] = [{ text: name, quality: 'primary' }];
    for (const alias of list('aliases')) {
      if (!names.some((known) => known.text.toUpperCase() === alias.toUpperCase())) names.push({ text: alias, quality: 'aka' });
    }
    const listedOn = cell('listed_on');
    return {
      source,
      id,
      kind,
      names,
      reference: id,
      program: cell('program') || null,
      listedOn: listedOn ? dateOf(listedOn, 'listed_on', where, false) : null,
      birthDates: list('birth_date').map((date) => dateOf(date, 'birth_date', where, true)),
      nationalities: list('nationality'),
    };
  });
  return { version: { source, generated: options.generated ?? null, entries: entries.length }, entries };
}

function columnsOf(header: string[]): Map<Column, number> {
  const known = new Set<string>(NATIONAL_LIST_COLUMNS);
  const index = new Map<Column, number>();
  header.forEach((raw, position) => {
    const name = raw.trim().toLowerCase();
    if (!known.has(name)) {
      throw new ScreeningListError(`header: unknown column ${JSON.stringify(raw)}; expected ${NATIONAL_LIST_COLUMNS.join(',')}`, 'line 1');
    }
    if (index.has(name as Column)) throw new ScreeningListError(`header: column ${name} appears twice`, 'line 1');
    index.set(name as Column, position);
  });
  const missing = NATIONAL_LIST_COLUMNS.filter((column) => !index.has(column));
  if (missing.length > 0) throw new ScreeningListError(`header: missing column(s) ${missing.join(', ')}`, 'line 1');
  return index;
}

/** `YYYY-MM-DD` or `DD.MM.YYYY` as `YYYY-MM-DD` (a real calendar day); with `partial`, `YYYY-MM` and `YYYY` too. */
function dateOf(value: string, column: Column, where: string, partial: boolean): string {
  const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value);
  const iso = dotted ? `${dotted[3]}-${dotted[2]}-${dotted[1]}` : value;
  const [, year, month, day] = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(iso) ?? [];
  const valid =
    year !== undefined &&
    (partial || day !== undefined) &&
    (month === undefined || (Number(month) >= 1 && Number(month) <= 12)) &&
    (day === undefined || new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() === Number(day));
  if (!valid) {
    const accepted = partial ? 'YYYY-MM-DD, DD.MM.YYYY, YYYY-MM or YYYY' : 'YYYY-MM-DD or DD.MM.YYYY';
    throw new ScreeningListError(`${column} ${JSON.stringify(value)} is not a date (${accepted})`, where);
  }
  return iso;
}
