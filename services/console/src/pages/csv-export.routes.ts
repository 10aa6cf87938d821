import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { Query } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { currentTimeZone } from '../i18n/index.js';
import { exportedFile } from '../views/export-link.view.js';
import { toExcelTurkiye } from './excel-csv.js';
import { pageContext } from './page-context.js';

const UTF8_BOM = '\ufeff';

/**
 * `GET /export/<list>.csv`: the "Export CSV" link of a list page (views/export-link.view.ts); `/export/<list>.excel-tr.csv`
 * its "Excel (Türkiye)" link, the same rows rewritten for Excel in Turkish (excel-csv.ts) and named `...-excel-tr.csv`.
 * The ops list behind each file is the list's row in views/sections.ts. The query is the ops API's list filters as the
 * page asked with them; the ledger checks them (a bad one is its 400, shown as an error page) and answers the CSV file,
 * which is streamed through as it comes, as the operator, never held whole.
 */
export function csvExportRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/export/:file', async (req, res) => {
    const asked = exportedFile(req.params.file);
    if (!asked) throw new AppError('not_found', 'There is no such list to export.');
    const { list, operation, variant } = asked;
    const ctx = pageContext(deps, req, res);
    const filters: Query = {};
    for (const [name, value] of Object.entries(req.query)) if (typeof value === 'string') filters[name] = value;
    const file = await ctx.ops.exportCsv(operation, filters);
    res.status(200).setHeader('Content-Type', 'text/csv; charset=utf-8');
    const filename = variant === 'excel-tr' ? file.filename.replace(/\.csv$/, '-excel-tr.csv') : file.filename;
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    // A spreadsheet opened on the file reads it as UTF-8 (Turkish names: Ş, Ğ, İ) only with a byte-order mark; the ops
    // API and `kasa --csv`, read by programs, stay without one.
    res.write(UTF8_BOM);
    try {
      // pipeline waits on the browser (backpressure) and, should it go away, cancels the download from the ledger.
      const body = Readable.fromWeb(file.body);
      await (variant === 'excel-tr' ? pipeline(body, toExcelTurkiye(currentTimeZone()), res) : pipeline(body, res));
    } catch (error) {
      // The file is cut short (the browser shows the download failed); what broke is for the logs, not a page.
      deps.logger.warn('CSV export ended early', { requestId: req.requestId, list, error: (error as Error).message });
    }
  });
  return router;
}
