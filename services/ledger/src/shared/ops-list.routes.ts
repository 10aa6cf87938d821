import type { RequestHandler } from 'express';
import type { Prisma, PrismaClient } from '@kasa/db';
import { checkRequest, LIST_FILTERS_INVALID, type RequestSchemaName } from '@kasa/contracts';
import { principalOf } from './operator-principal.js';
import { scopeOf, type SiteScope } from './site-scope.js';
import { wantsCsv } from './csv.js';
import type { CursorCodec } from './cursor.js';
import type { ListWindow } from './keyset.js';
import { isCsvList, sendOpsListCsv } from './ops-list-csv.js';
import { opsListPage, type OpsFilters, type OpsListQuery } from './ops-list.use-case.js';
import { LIST_TOO_SLOW, readWithTimeout } from './read-timeout.repository.js';

/** The record lists' filter schemas, named `opsList<Records>` by the contract (a record kind's module declares its own). */
type OpsListSchema = Extract<RequestSchemaName, `opsList${string}`>;

/**
 * A list's query checked against its filter schema (400 `validation_failed`, "The list filters are not valid."): a
 * query's values are text, so whatever passes is an {@link OpsListQuery}.
 */
function parseListQuery(schema: OpsListSchema, query: unknown): OpsListQuery {
  checkRequest(schema, query, LIST_FILTERS_INVALID);
  return query as OpsListQuery;
}

/** An ops list: the schema its filters must pass, the name its cursors are bound to, its rows and how each is shown. */
export interface OpsList<Row, Item> {
  schema: OpsListSchema;
  cursorList: string;
  /**
   * One page's rows, only of the sites in the operator's `scope` (null: every site), filtered in the query; every
   * statement on `tx`, the page's transaction with its statement timeout.
   */
  fetch: (filters: OpsFilters, window: ListWindow, scope: SiteScope, tx: Prisma.TransactionClient) => Promise<Row[]>;
  toItem: (row: Row) => Item;
}

/** What an ops list route reads with: the cursor codec, the database and OPS_READ_TIMEOUT_MS. */
export interface OpsListDeps {
  cursors: CursorCodec;
  db: PrismaClient;
  config: { opsReadTimeoutMs: number };
}

/**
 * `GET` of an ops list (review queues, bank transfers): the query checked with the list's filter schema
 * (400 `validation_failed`, "The list filters are not valid."), then one newest-first page of `fetch`'s
 * rows through the page window, each shown by `toItem`. Each page (of a CSV export too) is read in a transaction
 * of its own with OPS_READ_TIMEOUT_MS as its statement timeout: past it, 503 "The list took too long".
 */
export function opsListRoute<Row extends { createdAt: Date; id: string }, Item>(
  deps: OpsListDeps,
  list: OpsList<Row, Item>,
): RequestHandler {
  return async (req, res) => {
    const query = parseListQuery(list.schema, req.query);
    const scope = scopeOf(principalOf(res.locals));
    const fetch = (filters: OpsFilters, window: ListWindow) =>
      readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, LIST_TOO_SLOW, (tx) => list.fetch(filters, window, scope, tx));
    if (wantsCsv(req) && isCsvList(list.cursorList)) {
      const filters = { ...query, cursor: undefined, limit: undefined };
      return sendOpsListCsv(res, list.cursorList, (page) =>
        opsListPage(deps.cursors, list.cursorList, { ...filters, ...page }, fetch, list.toItem),
      );
    }
    res.json(await opsListPage(deps.cursors, list.cursorList, query, fetch, list.toItem));
  };
}
