import type pg from 'pg';
import { MicroBatch } from '@kasa/db';
import { keysetClause, type ListWindow } from './keyset.js';

/** A table of site-owned records and the columns (aliased to camelCase) the partner API shows of them. */
export interface SiteScopedTable {
  name: 'deposit_intents' | 'withdrawals';
  columns: string;
}

/**
 * Scoped lookups by primary key, batched: the lookups arriving in one turn of the event loop are read with
 * one `id = ANY(...)` statement. Another site's record is indistinguishable from a missing one, and the
 * plan is the same for both (the site is compared on the fetched row, never used to choose an index).
 */
export class ScopedLookup<Raw extends object> {
  private readonly batch: MicroBatch<string, (Raw & { siteId: string }) | null>;

  constructor(pool: pg.Pool, table: SiteScopedTable) {
    this.batch = new MicroBatch<string, (Raw & { siteId: string }) | null>(
      async (ids) => {
        const result = await pool.query<Raw & { id: string; siteId: string }>(
          `SELECT ${table.columns}, site_id::text AS "siteId" FROM ${table.name} WHERE id = ANY($1::uuid[])`,
          [ids],
        );
        const byId = new Map(result.rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      (id) => id,
    );
  }

  async find(siteId: string, id: string): Promise<Raw | null> {
    // A UUID is case-insensitive; rows come back in PostgreSQL's lower-case form and are matched on it.
    const raw = await this.batch.call(id.toLowerCase());
    if (!raw || raw.siteId !== siteId) return null;
    const { siteId: _site, ...row } = raw;
    return row as unknown as Raw;
  }
}

/** One newest-first keyset page of a site's records. */
export async function listScoped<Raw extends object>(
  pool: pg.Pool,
  table: SiteScopedTable,
  siteId: string,
  statuses: string[] | undefined,
  window: ListWindow,
): Promise<Raw[]> {
  const page = keysetClause(window, statuses, 2);
  const result = await pool.query<Raw>(`SELECT ${table.columns} FROM ${table.name} WHERE site_id = $1${page.where}${page.tail}`, [
    siteId,
    ...page.params,
  ]);
  return result.rows;
}
