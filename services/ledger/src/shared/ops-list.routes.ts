import type { RequestHandler } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { principalOf } from '../operators/operator-auth.js';
import { scopeOf, type SiteScope } from '../operators/site-scope.js';
import { wantsCsv } from './csv.js';
import type { CursorCodec } from './cursor.js';
import type { ListWindow } from './keyset.js';
import { isCsvList, sendOpsListCsv } from './ops-list-csv.js';
import { opsListPage, type OpsFilters, type OpsListQuery } from './ops-list.use-case.js';

// One parser per ops list-filter schema: parseRequest types a query by the schema's literal name, and each is an OpsListQuery.
const QUERY_PARSERS = {
  opsListIntents: (query: unknown): OpsListQuery => parseRequest('opsListIntents', query, LIST_FILTERS_INVALID),
  opsListWithdrawals: (query: unknown): OpsListQuery => parseRequest('opsListWithdrawals', query, LIST_FILTERS_INVALID),
  opsListBankTransfers: (query: unknown): OpsListQuery => parseRequest('opsListBankTransfers', query, LIST_FILTERS_INVALID),
  opsListSenderReturns: (query: unknown): OpsListQuery => parseRequest('opsListSenderReturns', query, LIST_FILTERS_INVALID),
};

/** An ops list: the schema its filters must pass, the name its cursors are bound to, its rows and how each is shown. */
export interface OpsList<Row, Item> {
  schema: keyof typeof QUERY_PARSERS;
  cursorList: string;
  /** One page's rows, only of the sites in the operator's `scope` (null: every site), filtered in the query. */
  fetch: (filters: OpsFilters, window: ListWindow, scope: SiteScope) => Promise<Row[]>;
  toItem: (row: Row) => Item;
}

/**
 * `GET` of an ops list (review queues, bank transfers): the query checked with the list's filter schema
 * (400 `validation_failed`, "The list filters are not valid."), then one newest-first page of `fetch`'s
 * rows through the page window, each shown by `toItem`.
 */
export function opsListRoute<Row extends { createdAt: Date; id: string }, Item>(
  cursors: CursorCodec,
  list: OpsList<Row, Item>,
): RequestHandler {
  return async (req, res) => {
    const query = QUERY_PARSERS[list.schema](req.query);
    const scope = scopeOf(principalOf(res.locals));
    const fetch = (filters: OpsFilters, window: ListWindow) => list.fetch(filters, window, scope);
    if (wantsCsv(req) && isCsvList(list.cursorList)) {
      const filters = { ...query, cursor: undefined, limit: undefined };
      return sendOpsListCsv(res, list.cursorList, (page) =>
        opsListPage(cursors, list.cursorList, { ...filters, ...page }, fetch, list.toItem),
      );
    }
    res.json(await opsListPage(cursors, list.cursorList, query, fetch, list.toItem));
  };
}
