/** The "Export CSV" link above a list: the list's file with the filters the page shows (pages/csv-export.routes.ts). */
import { withQuery, type Query } from '@kasa/ops-client';
import { html, safeUrl, type SafeHtml } from './html.js';

/** The lists the console exports, by the name in their file's address (`/export/deposits.csv`). */
export const EXPORTED_LISTS = ['deposits', 'withdrawals', 'bank-transfers', 'returns', 'events', 'audit'] as const;
export type ExportedList = (typeof EXPORTED_LISTS)[number];

/**
 * A link to every row of `list` that `filters` (the ops API's list query the page asked with) select, as CSV.
 * The page's cursor and page size are left out: the file is the whole filtered list, not the page on screen.
 */
export function exportCsvLink(list: ExportedList, filters: Query): SafeHtml {
  const { cursor: _cursor, limit: _limit, ...kept } = filters;
  return html`<p class="export">
    <a class="btn plain" href="${safeUrl(withQuery(`/export/${list}.csv`, kept))}" download>Export CSV</a>
    <span class="hint">every row these filters select, not only this page</span>
  </p>`;
}
