import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { connectClient } from './multi-host.js';

/** prisma/migrations at the repository root. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));

// The table `prisma migrate deploy` keeps, created exactly as Prisma creates it, so either tool can take over.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Any constant works; it only has to be the same for every migrating process.
const MIGRATION_LOCK_ID = 72_617_301;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every migration in prisma/migrations that the database has not recorded, each in its own
 * transaction, recording it in `_prisma_migrations` as `prisma migrate deploy` would. A recorded migration
 * whose file changed is an error. Concurrent starters are serialised by a transaction-level advisory lock
 * taken first in each migration's transaction: it holds behind a transaction pooler (PgBouncer in transaction
 * mode), where a session-level lock would stay behind on whichever server connection ran it.
 */
export async function migrate(databaseUrl: string, dir: string = MIGRATIONS_DIR): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  // A multi-host URL migrates on the host its target_session_attrs picks (read-write: the primary).
  const client = await connectClient(databaseUrl);
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    for (const migration of migrations) {
      if (await applyUnlessRecorded(client, migration)) result.applied.push(migration.name);
      else result.alreadyApplied.push(migration.name);
    }
  } finally {
    await client.end();
  }
  return result;
}

/**
 * One migration's transaction: the lock, then the record check (a starter that waited on the lock now sees
 * what the other one committed), then the migration and its record. True when this call applied it.
 */
async function applyUnlessRecorded(client: pg.Client, migration: Migration): Promise<boolean> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ checksum: string; finished_at: Date | null }>(
      'SELECT checksum, finished_at FROM "_prisma_migrations" WHERE migration_name = $1 AND rolled_back_at IS NULL',
      [migration.name],
    );
    const row = rows[0];
    if (row) {
      if (!row.finished_at) throw new Error(`migration ${migration.name} started but never finished; resolve it by hand`);
      if (row.checksum !== migration.checksum) throw new Error(`migration ${migration.name} was changed after it was applied`);
      await client.query('COMMIT');
      return false;
    }
    try {
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, now(), $3, now(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
    } catch (error) {
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
    }
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** What {@link pendingMigrations} needs of a connection: a pg Pool or Client. */
export interface Queryable {
  query<Row extends pg.QueryResultRow>(sql: string): Promise<pg.QueryResult<Row>>;
}

/**
 * The migrations this build ships that the database has not finished (or finished with other contents).
 * Empty means the schema is current: readiness waits for it, so pods of a new release take no traffic
 * before the migrate Job is done. Migrations the database has beyond these do not count, so an older build
 * stays ready after a newer one migrated (a rollback of the code, not of the schema).
 */
export async function pendingMigrations(db: Queryable, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const shipped = await readMigrations(dir);
  let rows: { migration_name: string; checksum: string }[];
  try {
    ({ rows } = await db.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    ));
  } catch (error) {
    // 42P01 undefined_table: nothing was ever migrated.
    if ((error as { code?: string }).code === '42P01') return shipped.map((migration) => migration.name);
    throw error;
  }
  const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
  return shipped.filter((migration) => applied.get(migration.name) !== migration.checksum).map((migration) => migration.name);
}

/**
 * A readiness check that fails while this build's migrations are not all applied; once they are, it stays
 * passed without querying again (the schema does not go backwards under a running process).
 */
export function schemaReadiness(db: Queryable, dir: string = MIGRATIONS_DIR): () => Promise<void> {
  let current = false;
  return async () => {
    if (current) return;
    const pending = await pendingMigrations(db, dir);
    if (pending.length > 0) throw new Error(`${pending.length} migration(s) not applied yet: ${pending.join(', ')}`);
    current = true;
  };
}
