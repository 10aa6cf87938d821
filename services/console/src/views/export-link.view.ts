/**
 * The export links above a list: the list's file with the filters the page shows (pages/csv-export.routes.ts), as the
 * ledger writes it for programs, and as Excel in a Turkish locale opens it (pages/excel-csv.ts).
 */
import { withQuery, type OpsCsvOperationId, type Query } from '@kasa/ops-client';
import { t } from '../i18n/index.js';
import { html, safeUrl, type SafeHtml } from './html.js';
import { EXPORTED_LISTS, type ExportedList } from './sections.js';

/**
 * The forms of a list's file, by how its address ends: `machine` is the ops API's CSV (`,`, dot decimals, UTC ISO
 * times); `excel-tr` is for Excel in Turkish (`;`, comma decimals, the desk's time).
 */
export const CSV_VARIANTS = { machine: '.csv', 'excel-tr': '.excel-tr.csv' } as const;
export type CsvVariant = keyof typeof CSV_VARIANTS;

/**
 * The list (sections.ts: its name and the ops list behind it) and the variant a file name under `/export/` asks for,
 * or null for no such file.
 */
export function exportedFile(file: string): { list: ExportedList; operation: OpsCsvOperationId; variant: CsvVariant } | null {
  for (const { list, operation } of EXPORTED_LISTS) {
    for (const [variant, ending] of Object.entries(CSV_VARIANTS) as Array<[CsvVariant, string]>) {
      if (file === `${list}${ending}`) return { list, operation, variant };
    }
  }
  return null;
}

/**
 * Links to every row of `list` that `filters` (the ops API's list query the page asked with) select, as CSV and as the
 * Excel (Türkiye) file. The page's cursor and page size are left out: a file is the whole filtered list, not the page.
 */
export function exportCsvLink(list: ExportedList, filters: Query): SafeHtml {
  const { cursor: _cursor, limit: _limit, ...kept } = filters;
  const href = (variant: CsvVariant) => safeUrl(withQuery(`/export/${list}${CSV_VARIANTS[variant]}`, kept));
  return html`<p class="export">
    <a class="btn plain" href="${href('machine')}" download>${t('csv.export')}</a>
    <a class="btn plain" href="${href('excel-tr')}" download>${t('csv.exportExcelTr')}</a>
    <span class="hint">${t('csv.hint')}</span>
  </p>`;
}
