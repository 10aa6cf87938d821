import { createHash, randomBytes } from 'node:crypto';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import pg from 'pg';
import { dropDatabase, ensureDatabase } from '../src/database.js';
import { MIGRATIONS_DIR, migrate, pendingMigrations, schemaReadiness } from '../src/migrate.js';

const prefix = `kasa_t_${randomBytes(6).toString('hex')}`;
const created: string[] = [];
let tempDir: string;
let migrationNames: string[];

/** A fresh, uniquely named database URL; every one is dropped in afterAll. */
async function freshDatabase(): Promise<string> {
  const url = `postgresql://postgres@127.0.0.1:5432/${prefix}_${created.length}`;
  created.push(url);
  await ensureDatabase(url);
  return url;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A private copy of prisma/migrations that a test may edit. */
async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(join(tempDir, 'migrations-'));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'kasa-migrate-test-'));
  const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true });
  migrationNames = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
});

afterAll(async () => {
  await Promise.all(created.map((url) => dropDatabase(url)));
  await rm(tempDir, { recursive: true, force: true });
});

describe('migrate', () => {
  it('applies every migration once and nothing on a second run', async () => {
    const url = await freshDatabase();
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(await migrate(url)).toEqual({ applied: migrationNames, alreadyApplied: [] });
    expect(await migrate(url)).toEqual({ applied: [], alreadyApplied: migrationNames });
    const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((r) => r.migration_name)).toEqual(migrationNames);
  });

  it('records each migration in _prisma_migrations exactly as prisma migrate deploy does', async () => {
    const url = await freshDatabase();
    await migrate(url);
    const columns = await query(
      url,
      `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', length: 36, is_nullable: 'NO', column_default: null },
      { column_name: 'checksum', data_type: 'character varying', length: 64, is_nullable: 'NO', column_default: null },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'migration_name', data_type: 'character varying', length: 255, is_nullable: 'NO', column_default: null },
      { column_name: 'logs', data_type: 'text', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'YES', column_default: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', length: null, is_nullable: 'NO', column_default: 'now()' },
      { column_name: 'applied_steps_count', data_type: 'integer', length: null, is_nullable: 'NO', column_default: '0' },
    ]);
    const [pk] = await query<{ columns: string }>(
      url,
      `SELECT pg_get_constraintdef(oid) AS columns FROM pg_constraint
      WHERE conrelid = '"_prisma_migrations"'::regclass AND contype = 'p'`,
    );
    expect(pk?.columns).toBe('PRIMARY KEY (id)');

    const rows = await query<{
      id: string;
      checksum: string;
      finished_at: Date | null;
      migration_name: string;
      logs: string | null;
      rolled_back_at: Date | null;
      started_at: Date;
      applied_steps_count: number;
    }>(url, 'SELECT * FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows).toHaveLength(migrationNames.length);
    for (const [i, row] of rows.entries()) {
      const sql = await readFile(join(MIGRATIONS_DIR, migrationNames[i]!, 'migration.sql'));
      expect(row).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        checksum: createHash('sha256').update(sql).digest('hex'),
        finished_at: expect.any(Date),
        migration_name: migrationNames[i],
        logs: null,
        rolled_back_at: null,
        started_at: expect.any(Date),
        applied_steps_count: 1,
      });
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
  });

  it('lets two concurrent runs on a fresh database both succeed, applying each migration once', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    expect([...a.applied, ...b.applied].sort()).toEqual(migrationNames);
    expect([...a.alreadyApplied, ...b.alreadyApplied].sort()).toEqual(migrationNames);
    const counts = await query<{ migration_name: string; n: number }>(
      url,
      'SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY migration_name ORDER BY migration_name',
    );
    expect(counts).toEqual(migrationNames.map((migration_name) => ({ migration_name, n: 1 })));
  });

  it('refuses a migration whose file changed after it was applied', async () => {
    const url = await freshDatabase();
    const dir = await copyOfMigrations();
    await migrate(url, dir);
    const last = migrationNames[migrationNames.length - 1]!;
    await appendFile(join(dir, last, 'migration.sql'), '\n-- edited after deploy\n');
    await expect(migrate(url, dir)).rejects.toThrow(`migration ${last} was changed after it was applied`);
  });

  it('refuses to continue past a migration that started but never finished', async () => {
    const url = await freshDatabase();
    await migrate(url);
    await query(url, 'UPDATE "_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1', [migrationNames[0]]);
    await expect(migrate(url)).rejects.toThrow(`migration ${migrationNames[0]} started but never finished`);
  });

  it('rolls back a failing migration and records nothing for it, so a fixed file applies later', async () => {
    const url = await freshDatabase();
    const dir = await copyOfMigrations();
    const broken = '99991231235959_broken';
    await mkdir(join(dir, broken));
    await writeFile(join(dir, broken, 'migration.sql'), 'CREATE TABLE "probe" ("id" INTEGER);\nSELECT 1 / 0;\n');

    await expect(migrate(url, dir)).rejects.toThrow(`migration ${broken} failed: division by zero`);
    const tables = await query(url, `SELECT 1 FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'probe'`);
    expect(tables).toEqual([]);
    const recorded = await query<{ migration_name: string }>(
      url,
      'SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(recorded.map((r) => r.migration_name)).toEqual(migrationNames);

    await writeFile(join(dir, broken, 'migration.sql'), 'CREATE TABLE "probe" ("id" INTEGER);\n');
    expect(await migrate(url, dir)).toEqual({ applied: [broken], alreadyApplied: migrationNames });
  });
});

describe('ensureDatabase', () => {
  it('returns true only when it created the database, and is idempotent', async () => {
    const url = `postgresql://postgres@127.0.0.1:5432/${prefix}_ensure`;
    created.push(url);
    expect(await ensureDatabase(url)).toBe(true);
    expect(await ensureDatabase(url)).toBe(false);
    expect(await query(url, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    await dropDatabase(url);
    expect(await ensureDatabase(url)).toBe(true);
  });

  it('creates the database once when several processes start together', async () => {
    const url = `postgresql://postgres@127.0.0.1:5432/${prefix}_race`;
    created.push(url);
    const results = await Promise.all(Array.from({ length: 5 }, () => ensureDatabase(url)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('rejects a database name that is not letters, digits and _', async () => {
    await expect(ensureDatabase('postgresql://postgres@127.0.0.1:5432/kasa-t";DROP')).rejects.toThrow('must be letters, digits and _');
  });

  it('tells readiness which shipped migrations are missing, and ignores ones a newer build applied', async () => {
    const url = await freshDatabase();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      // Nothing migrated yet: every shipped migration is pending, and readiness fails naming them.
      expect(await pendingMigrations(pool)).toEqual(migrationNames);
      const ready = schemaReadiness(pool);
      await expect(ready()).rejects.toThrow(`${migrationNames.length} migration(s) not applied yet`);

      // An older schema: all but the last migration.
      const older = await copyOfMigrations();
      const last = migrationNames.at(-1)!;
      await rm(join(older, last), { recursive: true });
      await migrate(url, older);
      expect(await pendingMigrations(pool)).toEqual([last]);
      await expect(ready()).rejects.toThrow(last);

      // The migrate step ran: ready, and a build that ships fewer migrations is ready too.
      await migrate(url);
      expect(await pendingMigrations(pool)).toEqual([]);
      await expect(ready()).resolves.toBeUndefined();
      expect(await pendingMigrations(pool, older)).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
