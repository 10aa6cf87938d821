import { validateRequest, type ListResponse, type RequestSchemaName } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { CursorCodec } from '../domain/cursor.js';
import type { ListWindow } from '../repositories/keyset.js';
import { readPage } from '../use-cases/list-records.use-case.js';

/** Filters of an ops list besides the window: siteId, status, actorId and so on, as strings. */
export type OpsFilters = Record<string, string>;

/**
 * One newest-first page of an ops list (review queues, bank transfers, audit). The same contract as the
 * partner lists: `{data, nextCursor}`, an opaque cursor bound to the filters, `limit` 1 to 100.
 */
export async function opsListPage<Row extends { createdAt: Date; id: string }, Item>(
  cursors: CursorCodec,
  list: { name: string; schema: RequestSchemaName },
  query: Record<string, unknown>,
  fetch: (filters: OpsFilters, window: ListWindow) => Promise<Row[]>,
  toItem: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const errors = validateRequest(list.schema, query);
  if (errors.length > 0) throw AppError.validation(errors, 'The list filters are not valid.');
  const { cursor, limit: rawLimit, createdFrom: rawFrom, createdTo: rawTo, ...rest } = query as Record<string, string | undefined>;
  const filters: OpsFilters = {};
  for (const key of Object.keys(rest).sort()) {
    const value = rest[key];
    if (value !== undefined) filters[key] = key === 'status' ? [...new Set(value.split(','))].sort().join(',') : value;
  }
  const createdFrom = rawFrom ? new Date(rawFrom) : undefined;
  const createdTo = rawTo ? new Date(rawTo) : undefined;
  const scope = {
    list: list.name,
    siteId: filters.siteId ?? '*',
    filters: { ...filters, createdFrom: createdFrom?.toISOString() ?? null, createdTo: createdTo?.toISOString() ?? null },
  };
  return readPage(cursors, scope, { cursor, limit: rawLimit, createdFrom, createdTo }, (window) => fetch(filters, window), toItem);
}

/** `status=A,B` as a typed list, or undefined when absent. */
export function statusesOf<T extends string>(filters: OpsFilters): T[] | undefined {
  return filters.status ? (filters.status.split(',') as T[]) : undefined;
}

/**
 * The review-list filters from an ops query: site, statuses and a reference number, which is upper-cased
 * and stripped of spaces and dashes as the bank-description matcher does.
 */
export function reviewFilter<Status>(filters: OpsFilters, statuses: Status[] | undefined) {
  return {
    ...(filters.siteId ? { siteId: filters.siteId } : {}),
    ...(statuses ? { statuses } : {}),
    ...(filters.referenceNo ? { referenceNo: filters.referenceNo.toUpperCase().replace(/[\s-]+/g, '') } : {}),
  };
}
