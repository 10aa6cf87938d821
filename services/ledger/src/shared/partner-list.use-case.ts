import { DEFAULT_PAGE_SIZE, type ListResponse } from '@kasa/contracts';
import type { CursorCodec, CursorPosition, CursorScope } from './cursor.js';
import type { ListWindow } from './keyset.js';

/** A partner list's filters, already checked against the list's schema. */
export interface ListQuery {
  createdFrom?: string;
  createdTo?: string;
  status?: string;
  cursor?: string;
  limit?: string;
}

/** A list with its row fetcher and its row mapper: everything else is shared by all lists. */
export interface ListSource<Row extends { createdAt: Date; id: string }, Item> {
  name: string;
  fetch(siteId: string, statuses: string[] | undefined, window: ListWindow): Promise<Row[]>;
  toItem(row: Row): Item;
}

/**
 * One page of a newest-first list. The route has parsed the filters with the list's schema (the ledger
 * trusts no caller); the cursor must match them, and one extra row is read to know whether another page exists.
 */
export async function listPage<Row extends { createdAt: Date; id: string }, Item>(
  source: ListSource<Row, Item>,
  cursors: CursorCodec,
  siteId: string,
  query: ListQuery,
): Promise<ListResponse<Item>> {
  const statuses = query.status ? [...new Set(query.status.split(','))].sort() : undefined;
  const createdFrom = query.createdFrom ? new Date(query.createdFrom) : undefined;
  const createdTo = query.createdTo ? new Date(query.createdTo) : undefined;
  const scope = {
    list: source.name,
    siteId,
    filters: { statuses: statuses ?? null, createdFrom: createdFrom?.toISOString() ?? null, createdTo: createdTo?.toISOString() ?? null },
  };
  return readPage(
    cursors,
    scope,
    { cursor: query.cursor, limit: query.limit, createdFrom, createdTo },
    (window) => source.fetch(siteId, statuses, window),
    (row) => source.toItem(row),
  );
}

/**
 * Reads one newest-first page through a cursor bound to `scope` (a cursor minted for other filters is
 * refused): one row more than the page is fetched to know whether another page exists, and the next cursor
 * is the page's last row. Every list, partner and ops, pages through here.
 */
export async function readPage<Row extends { createdAt: Date; id: string }, Item>(
  cursors: CursorCodec,
  scope: CursorScope,
  query: { cursor?: string; limit?: string; createdFrom?: Date; createdTo?: Date; oldestFirst?: boolean },
  fetch: (window: ListWindow) => Promise<Row[]>,
  toItem: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const after: CursorPosition | undefined = query.cursor ? cursors.decode(query.cursor, scope) : undefined;
  const limit = query.limit ? Number(query.limit) : DEFAULT_PAGE_SIZE;
  const rows = await fetch({
    ...(query.createdFrom ? { createdFrom: query.createdFrom } : {}),
    ...(query.createdTo ? { createdTo: query.createdTo } : {}),
    ...(after ? { after } : {}),
    ...(query.oldestFirst ? { oldestFirst: true } : {}),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > limit && last ? cursors.encode({ createdAt: last.createdAt, id: last.id }, scope) : null;
  return { data: page.map(toItem), nextCursor };
}
