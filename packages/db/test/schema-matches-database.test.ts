import { randomBytes } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import pg from 'pg';
import { dropDatabase, ensureDatabase } from '../src/database.js';
import { migrate } from '../src/migrate.js';
import { TABLES } from '../src/generated/tables.js';
import { readFile } from 'node:fs/promises';
import { diffSchema, loadDatamodel, parseDatamodel, SCHEMA_PATH, type Datamodel } from './schema-diff.js';

const dbUrl = (name: string) => `postgresql://postgres@127.0.0.1:5432/${name}`;
const suffix = randomBytes(6).toString('hex');
const migrated = dbUrl(`kasa_t_${suffix}`);
const tampered = dbUrl(`kasa_t_${suffix}_tampered`);

async function exec(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let datamodel: Datamodel;

beforeAll(async () => {
  datamodel = await loadDatamodel();
  await Promise.all(
    [migrated, tampered].map(async (url) => {
      await ensureDatabase(url);
      await migrate(url);
    }),
  );
});

afterAll(async () => {
  await Promise.all([dropDatabase(migrated), dropDatabase(tampered)]);
});

describe('prisma/migrations applied to an empty database', () => {
  it('reads a non-trivial datamodel from schema.prisma', () => {
    expect(datamodel.models.length).toBeGreaterThan(10);
    expect(datamodel.enums.map((e) => e.name)).toContain('DepositStatus');
    expect(datamodel.indexes.some((i) => i.fields.some((f) => f.sortOrder === 'desc'))).toBe(true);
  });

  it("names every model's table in TABLES (written by setup), as Prisma's own reading of schema.prisma does", () => {
    expect(TABLES).toEqual(Object.fromEntries(datamodel.models.map((model) => [model.name, model.dbName ?? model.name])));
  });

  it('produces exactly the tables, columns, types, nullability, enums, keys, indexes and foreign keys of schema.prisma', async () => {
    expect(await diffSchema(migrated, datamodel)).toEqual([]);
  });
});

describe('the schema comparison', () => {
  it('reports a schema.prisma edit that no migration carries', async () => {
    const edited = (await readFile(SCHEMA_PATH, 'utf8'))
      .replace('email     String       @unique @db.VarChar(254)', 'email     String       @unique @db.VarChar(320)')
      .replace('  @@index([operatorId])\n', '  @@index([operatorId])\n  @@index([label])\n')
      .replace('  LATE_ARRIVAL\n', '  LATE_ARRIVAL\n  REFUNDED\n');
    expect((await diffSchema(migrated, parseDatamodel(edited))).sort()).toEqual([
      'column operators.email is character varying(254), schema says character varying(320)',
      'enum DepositStatus has labels [RESERVED, PENDING_REVIEW, APPROVED, REJECTED, AUTO_CANCELLED, LATE_ARRIVAL], schema says [RESERVED, PENDING_REVIEW, APPROVED, REJECTED, AUTO_CANCELLED, LATE_ARRIVAL, REFUNDED]',
      'index on operator_tokens(label) is missing',
    ]);
  });

  it('reports each way a database can drift from the schema', async () => {
    await exec(
      tampered,
      `
      ALTER TABLE "sites" ALTER COLUMN "slug" DROP NOT NULL;
      ALTER TABLE "sites" ALTER COLUMN "webhook_url" SET NOT NULL;
      DROP INDEX "deposit_intents_status_expires_at_idx";
      DROP INDEX "audit_log_created_at_id_idx";
      CREATE INDEX "audit_log_created_at_id_idx" ON "audit_log"("created_at", "id" DESC);
      DROP INDEX "withdrawals_site_id_idempotency_key_key";
      CREATE INDEX "withdrawals_site_id_idempotency_key_key" ON "withdrawals"("site_id", "idempotency_key");
      ALTER TABLE "operators" ALTER COLUMN "email" TYPE VARCHAR(255);
      ALTER TABLE "journal_entries" ALTER COLUMN "created_at" TYPE TIMESTAMP(3);
      ALTER TABLE "api_keys" ADD COLUMN "note" TEXT;
      ALTER TABLE "delivery_attempts" DROP COLUMN "error";
      ALTER TABLE "bank_transfers" DROP CONSTRAINT "bank_transfers_intent_id_fkey";
      ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_intent_id_fkey" FOREIGN KEY ("intent_id")
        REFERENCES "deposit_intents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
      ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_site_id_fkey";
      ALTER TYPE "EventStatus" ADD VALUE 'ARCHIVED';
      ALTER INDEX "api_keys_site_id_idx" RENAME TO "api_keys_site";
      CREATE TABLE "stray" ("id" INTEGER PRIMARY KEY);
    `,
    );

    const diffs = await diffSchema(tampered, datamodel);

    // Exactly the tampering is reported, nothing more (the untouched database compares clean).
    expect([...diffs].sort()).toEqual(
      [
        'column sites.slug is nullable, schema says NOT NULL',
        'column sites.webhook_url is NOT NULL, schema says nullable',
        'index on deposit_intents(status, expires_at) is missing',
        'index on audit_log(created_at DESC, id DESC) is missing',
        'index on audit_log(created_at, id DESC) (audit_log_created_at_id_idx) is not in the schema',
        'unique index on withdrawals(site_id, idempotency_key) is missing',
        'column operators.email is character varying(255), schema says character varying(254)',
        'column journal_entries.created_at is timestamp without time zone(3), schema says timestamp with time zone(3)',
        'column api_keys.note is not in the schema',
        'column delivery_attempts.error is missing',
        'foreign key bank_transfers(intent_id) -> deposit_intents(id) is ON DELETE Cascade, schema says SetNull',
        'foreign key journal_entries(site_id) -> sites(id) (JournalEntry.site) is missing',
        'enum EventStatus has labels [PENDING, DELIVERED, DEAD, ARCHIVED], schema says [PENDING, DELIVERED, DEAD]',
        'index on withdrawals(site_id, idempotency_key) (withdrawals_site_id_idempotency_key_key) is not in the schema',
        'index on api_keys(site_id) is named api_keys_site, Prisma expects api_keys_site_id_idx',
        'table stray is not in the schema',
        'primary key on stray(id) (stray_pkey) is not in the schema',
      ].sort(),
    );
  });
});
