import type { ListResponse } from '@kasa/contracts';
import type { CursorCodec } from './cursor.js';
import type { ListWindow } from './keyset.js';
import { readPage } from './partner-list.use-case.js';

/** Filters of an ops list besides the window: siteId, status, actorId and so on, as strings. */
export type OpsFilters = Record<string, string>;

/** An ops list's query, already parsed with the list's schema: the window fields plus string filters. */
export type OpsListQuery = Readonly<Record<string, string | undefined>> & {
  cursor?: string;
  limit?: string;
  createdFrom?: string;
  createdTo?: string;
};

/**
 * One page of an ops list (review queues, bank transfers, audit), newest first unless `order=oldest`. The same contract as the
 * partner lists: `{data, nextCursor}`, an opaque cursor bound to the filters, `limit` 1 to 100.
 */
export async function opsListPage<Row extends { createdAt: Date; id: string }, Item>(
  cursors: CursorCodec,
  listName: string,
  query: OpsListQuery,
  fetch: (filters: OpsFilters, window: ListWindow) => Promise<Row[]>,
  toItem: (row: Row) => Item,
): Promise<ListResponse<Item>> {
  const { cursor, limit: rawLimit, createdFrom: rawFrom, createdTo: rawTo, ...rest } = query;
  const filters: OpsFilters = {};
  for (const key of Object.keys(rest).sort()) {
    const value = rest[key];
    if (value !== undefined) filters[key] = key === 'status' ? [...new Set(value.split(','))].sort().join(',') : value;
  }
  const createdFrom = rawFrom ? new Date(rawFrom) : undefined;
  const createdTo = rawTo ? new Date(rawTo) : undefined;
  const scope = {
    list: listName,
    siteId: filters.siteId ?? '*',
    filters: { ...filters, createdFrom: createdFrom?.toISOString() ?? null, createdTo: createdTo?.toISOString() ?? null },
  };
  // `order` is bound into the cursor with the other filters: a cursor of one order is refused by the other.
  const oldestFirst = filters.order === 'oldest';
  return readPage(
    cursors,
    scope,
    { cursor, limit: rawLimit, createdFrom, createdTo, oldestFirst },
    (window) => fetch(filters, window),
    toItem,
  );
}

/** `status=A,B` as a typed list, or undefined when absent. */
export function statusesOf<T extends string>(filters: OpsFilters, known: readonly T[]): T[] | undefined {
  return knownStatuses(filters.status?.split(','), known);
}

/** The statuses of a parsed filter narrowed to the list's own (the schema has already refused others). */
export function knownStatuses<T extends string>(statuses: readonly string[] | undefined, known: readonly T[]): T[] | undefined {
  return statuses?.filter((status): status is T => (known as readonly string[]).includes(status));
}

/** A reference as people type it (`kd7m x4q2-rh`) in the form it is stored (`KD7MX4Q2RH`), as the bank-description matcher reads it. */
export function normalizeReference(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]+/g, '');
}

/**
 * The review-list filters from an ops query: site, statuses, a reference number (normalized), the
 * partner's user and an amount range in kuruş.
 */
export function reviewFilter<Status>(filters: OpsFilters, statuses: Status[] | undefined) {
  return {
    ...(filters.siteId ? { siteId: filters.siteId } : {}),
    ...(statuses ? { statuses } : {}),
    ...(filters.referenceNo ? { referenceNo: normalizeReference(filters.referenceNo) } : {}),
    ...(filters.externalUserId ? { externalUserId: filters.externalUserId } : {}),
    ...(filters.amountMin ? { amountMin: BigInt(filters.amountMin) } : {}),
    ...(filters.amountMax ? { amountMax: BigInt(filters.amountMax) } : {}),
    ...(filters.mode ? { livemode: filters.mode === 'live' } : {}),
  };
}
