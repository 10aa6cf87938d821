import type pg from 'pg';
import { keysetClause, type ListWindow } from './keyset.js';

/** A table of site-owned records and the columns (aliased to camelCase) the partner API shows of them. */
export interface SiteScopedTable {
  name: 'deposit_intents' | 'withdrawals';
  columns: string;
}

/**
 * Scoped lookup by primary key: another site's record is indistinguishable from a missing one, and the
 * plan is the same for both (the site is compared on the fetched row, never used to choose an index).
 */
export async function findScoped<Raw extends object>(pool: pg.Pool, table: SiteScopedTable, siteId: string, id: string): Promise<Raw | null> {
  const result = await pool.query<Raw & { siteId: string }>(`SELECT ${table.columns}, site_id::text AS "siteId" FROM ${table.name} WHERE id = $1`, [id]);
  const raw = result.rows[0];
  if (!raw || raw.siteId !== siteId) return null;
  const { siteId: _site, ...row } = raw;
  return row as unknown as Raw;
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
