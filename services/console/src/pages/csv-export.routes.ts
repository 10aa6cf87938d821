import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { OpsCsvOperationId, Query } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { EXPORTED_LISTS, type ExportedList } from '../views/export-link.view.js';
import { pageContext } from './page-context.js';

const UTF8_BOM = '\ufeff';

/** The ops list behind each exported console list. */
const OPERATIONS: Record<ExportedList, OpsCsvOperationId> = {
  deposits: 'opsListIntents',
  withdrawals: 'opsListWithdrawals',
  'bank-transfers': 'listBankTransfers',
  returns: 'listSenderReturns',
  events: 'opsListEvents',
  audit: 'listAudit',
};

/**
 * `GET /export/<list>.csv`: the "Export CSV" link of a list page (views/export-link.view.ts). The query is the ops
 * API's list filters as the page asked with them; the ledger checks them (a bad one is its 400, shown as an error
 * page) and answers the CSV file, which is streamed through as it comes, as the operator, never held whole.
 */
export function csvExportRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/export/:file', async (req, res) => {
    const list = EXPORTED_LISTS.find((name) => req.params.file === `${name}.csv`);
    if (!list) throw new AppError('not_found', 'There is no such list to export.');
    const ctx = pageContext(deps, req, res);
    const filters: Query = {};
    for (const [name, value] of Object.entries(req.query)) if (typeof value === 'string') filters[name] = value;
    const file = await ctx.ops.exportCsv(OPERATIONS[list], filters);
    res.status(200).setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    // A spreadsheet opened on the file reads it as UTF-8 (Turkish names: Ş, Ğ, İ) only with a byte-order mark; the ops
    // API and `kasa --csv`, read by programs, stay without one.
    res.write(UTF8_BOM);
    try {
      // pipeline waits on the browser (backpressure) and, should it go away, cancels the download from the ledger.
      await pipeline(Readable.fromWeb(file.body), res);
    } catch (error) {
      // The file is cut short (the browser shows the download failed); what broke is for the logs, not a page.
      deps.logger.warn('CSV export ended early', { requestId: req.requestId, list, error: (error as Error).message });
    }
  });
  return router;
}
