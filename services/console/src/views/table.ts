/** The console's list tables: a header row, a row per record, and one line in their place when there are none. */
import { html, type HtmlValue, type SafeHtml } from './html.js';

/** One column: its header, and what each record shows in it. Values are escaped unless they are SafeHtml. */
export interface Column<T> {
  /** Header text; '' for a column of row actions. */
  header: HtmlValue;
  /** Class of the header and of every cell, such as "num" for amounts and counts. */
  class?: string;
  /** Class of the cells alone, when it differs from the header's or depends on the record. */
  cellClass?: string | ((row: T) => string);
  /** The cell's title, such as the full id behind a short name. */
  cellTitle?: (row: T) => string;
  cell: (row: T) => HtmlValue;
}

export interface TableOptions<T> {
  columns: Array<Column<T>>;
  rows: readonly T[];
  /** Shown across the table when there are no rows. */
  empty: string;
  /** The row's `data-id`: the record's id, by which scripts and tests find the row. */
  rowId?: (row: T) => string;
  /** The row's class, such as "late" or "dead"; none when it returns ''. */
  rowClass?: (row: T) => string;
}

function classAttr(name: string | undefined): SafeHtml | '' {
  return name ? html` class="${name}"` : '';
}

function emptyRow(columns: number, text: string): SafeHtml {
  return html`<tr>
    <td colspan="${columns}" class="empty">${text}</td>
  </tr>`;
}

function row<T>(options: TableOptions<T>, record: T): SafeHtml {
  const id = options.rowId ? html` data-id="${options.rowId(record)}"` : '';
  return html`<tr${id}${classAttr(options.rowClass?.(record))}>
    ${options.columns.map((column) => {
      const cellClass = typeof column.cellClass === 'function' ? column.cellClass(record) : (column.cellClass ?? column.class);
      const title = column.cellTitle ? html` title="${column.cellTitle(record)}"` : '';
      // On a narrow screen each row is a card and each cell names its column (console.css).
      const label = typeof column.header === 'string' && column.header !== '' ? html` data-label="${column.header}"` : '';
      return html`<td${title}${label}${classAttr(cellClass)}><div class="cell">${column.cell(record)}</div></td>`;
    })}
  </tr>`;
}

/**
 * A `table.list`: the header row, then a row per record with its cells in the order of `columns`. On a
 * narrow screen every row becomes a card of labelled cells; the box around it scrolls sideways should a
 * cell still be too wide, so the page itself never does.
 */
export function table<T>(options: TableOptions<T>): SafeHtml {
  const { columns, rows } = options;
  return html`<div class="table-wrap">
    <table class="list">
      <thead>
        <tr>
          ${columns.map((column) => html`<th${classAttr(column.class)}>${column.header}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.length === 0 ? emptyRow(columns.length, options.empty) : rows.map((record) => row(options, record))}
      </tbody>
    </table>
  </div>`;
}
