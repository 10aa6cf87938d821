import type pg from 'pg';
import { eventually } from './harness.js';

/**
 * Races a guarded request against a change committed while the request waits for a row's lock: a transaction locks
 * `lock.table`'s row `lock.id`, `request` starts and blocks on that lock, `meanwhile` writes in the locking
 * transaction, which then commits; answers what the request answered. A guard that read its record before taking the
 * lock (or on the snapshot its statement began with) misses the change and lets the request through.
 */
export async function raceTheLock<T>(
  pool: pg.Pool,
  lock: { table: string; id: string },
  request: () => Promise<T>,
  meanwhile: (client: pg.PoolClient) => Promise<unknown>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT id FROM ${lock.table} WHERE id = $1 FOR UPDATE`, [lock.id]);
    const pending = request();
    // The request is waiting on the row lock now (it cannot finish before the COMMIT below).
    await eventually(
      async () =>
        (
          await client.query<{ waiting: string }>(
            "SELECT count(*)::text AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
          )
        ).rows[0]?.waiting !== '0',
      10_000,
      `the request waiting for the ${lock.table} lock`,
    );
    await meanwhile(client);
    await client.query('COMMIT');
    return await pending;
  } finally {
    client.release();
  }
}
