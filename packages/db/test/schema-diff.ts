/**
 * Compares a live PostgreSQL database with prisma/schema.prisma, read through Prisma's own DMMF
 * (@prisma/prisma-schema-wasm, the same parser `prisma generate` uses). Returns one line per difference.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import schemaWasm from '@prisma/prisma-schema-wasm';
import pg from 'pg';

export const SCHEMA_PATH = fileURLToPath(new URL('../../../prisma/schema.prisma', import.meta.url));

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: string;
  dbName?: string | null;
  fields: { name: string; sortOrder?: 'asc' | 'desc' }[];
}
interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName?: string | null }[];
}
export interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

export function parseDatamodel(content: string, path = SCHEMA_PATH): Datamodel {
  return (JSON.parse(schemaWasm.get_dmmf(JSON.stringify({ prismaSchema: [[path, content]] }))) as { datamodel: Datamodel }).datamodel;
}

export async function loadDatamodel(path = SCHEMA_PATH): Promise<Datamodel> {
  return parseDatamodel(await readFile(path, 'utf8'), path);
}

/** information_schema spelling of the column Prisma creates for a field (Prisma's PostgreSQL defaults). */
function expectedType(field: DmmfField, enums: Map<string, string>): string {
  if (field.isList) {
    // A scalar list: PostgreSQL's array of the element's default type, or of its native type (`String[] @db.Uuid`).
    const element = ({ String: '_text', Int: '_int4', BigInt: '_int8', Boolean: '_bool' } as Record<string, string>)[field.type];
    if (field.type === 'String' && field.nativeType?.[0] === 'Uuid') return 'ARRAY _uuid';
    return element && !field.nativeType ? `ARRAY ${element}` : `unsupported list field ${field.type}[]`;
  }
  if (field.kind === 'enum') return `USER-DEFINED ${enums.get(field.type) ?? field.type}`;
  const [native, args = []] = field.nativeType ?? [undefined, []];
  const sized = (base: string) => (args.length ? `${base}(${args.join(',')})` : base);
  const key = `${field.type}/${native ?? ''}`;
  switch (key) {
    case 'String/':
    case 'String/Text':
      return 'text';
    case 'String/VarChar':
      return sized('character varying');
    case 'String/Char':
      return args.length ? sized('character') : 'character(1)';
    case 'String/Uuid':
      return 'uuid';
    case 'Int/':
    case 'Int/Integer':
      return 'integer';
    case 'Int/SmallInt':
      return 'smallint';
    case 'BigInt/':
    case 'BigInt/BigInt':
      return 'bigint';
    case 'Boolean/':
    case 'Boolean/Boolean':
      return 'boolean';
    case 'Float/':
    case 'Float/DoublePrecision':
      return 'double precision';
    case 'DateTime/':
      return 'timestamp without time zone(3)';
    case 'DateTime/Timestamp':
      return `timestamp without time zone(${args[0] ?? 6})`;
    case 'DateTime/Timestamptz':
      return `timestamp with time zone(${args[0] ?? 6})`;
    case 'DateTime/Date':
      return 'date';
    case 'Json/':
    case 'Json/JsonB':
      return 'jsonb';
    case 'Json/Json':
      return 'json';
    case 'Bytes/':
    case 'Bytes/ByteA':
      return 'bytea';
    default:
      return `unsupported ${key}`;
  }
}

interface ColumnRow {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
  udt_name: string;
  character_maximum_length: number | null;
  datetime_precision: number | null;
}
function actualType(c: ColumnRow): string {
  switch (c.data_type) {
    case 'character varying':
      return c.character_maximum_length === null ? c.data_type : `${c.data_type}(${c.character_maximum_length})`;
    case 'character':
      return `${c.data_type}(${c.character_maximum_length})`;
    case 'timestamp with time zone':
    case 'timestamp without time zone':
      return `${c.data_type}(${c.datetime_precision})`;
    case 'USER-DEFINED':
    case 'ARRAY':
      return `${c.data_type} ${c.udt_name}`;
    default:
      return c.data_type;
  }
}

const ON_ACTION: Record<string, string> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };
/** Indexes Prisma's schema cannot express (on an expression), each defined only in the migration that names it. */
const SQL_ONLY_INDEXES = new Set([
  'bank_transfers_description_key_trgm_idx', // prisma/migrations/20261213000000_search_indexes
  'withdrawals_target_iban_tail_idx', // prisma/migrations/20261222200000_search_iban_tails
  'bank_transfers_sender_iban_tail_idx', // prisma/migrations/20261222200000_search_iban_tails
  'deposit_intents_newest_names_idx', // prisma/migrations/20261222300000_search_names_in_newest_first (INCLUDE)
  'withdrawals_newest_names_idx',
  'bank_transfers_newest_names_idx',
]);
const describeIndex = (table: string, kind: string, cols: string[]) => `${kind} on ${table}(${cols.join(', ')})`;

export async function diffSchema(databaseUrl: string, dm: Datamodel): Promise<string[]> {
  const diffs: string[] = [];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const q = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
    const tables = await q<{ table_name: string }>(`SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`);
    const columns = await q<ColumnRow>(`SELECT table_name, column_name, is_nullable, data_type, udt_name,
      character_maximum_length, datetime_precision FROM information_schema.columns WHERE table_schema = 'public'`);
    const enumRows = await q<{ name: string; labels: string[] }>(`SELECT t.typname::text AS name,
      array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
      JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' GROUP BY t.typname`);
    const everyIndex = await q<{
      table_name: string;
      index_name: string;
      is_unique: boolean;
      is_primary: boolean;
      special: boolean;
      columns: string[];
      descending: boolean[];
    }>(`
      SELECT t.relname::text AS table_name, ic.relname::text AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
        (ix.indexprs IS NOT NULL OR ix.indpred IS NOT NULL) AS special,
        array_agg(a.attname::text ORDER BY k.ord) AS columns,
        array_agg((ix.indoption[k.ord - 1] & 1) = 1 ORDER BY k.ord) AS descending
      FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class ic ON ic.oid = ix.indexrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
      LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations' GROUP BY 1, 2, 3, 4, 5`);
    const indexRows = everyIndex.filter((i) => !SQL_ONLY_INDEXES.has(i.index_name));
    const fkRows = await q<{
      table_name: string;
      name: string;
      columns: string[];
      ref_table: string;
      ref_columns: string[];
      on_delete: string;
      on_update: string;
    }>(`
      SELECT (SELECT relname::text FROM pg_class WHERE oid = c.conrelid) AS table_name, c.conname::text AS name,
        (SELECT relname::text FROM pg_class WHERE oid = c.confrelid) AS ref_table,
        c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update,
        ARRAY(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS columns,
        ARRAY(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS ref_columns
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'f' AND n.nspname = 'public'`);

    // Enums: same names, same labels in the same order.
    const enumDbNames = new Map(dm.enums.map((e) => [e.name, e.dbName ?? e.name]));
    const dbEnums = new Map(enumRows.map((e) => [e.name, e.labels.join(', ')]));
    for (const e of dm.enums) {
      const name = e.dbName ?? e.name;
      const labels = e.values.map((v) => v.dbName ?? v.name).join(', ');
      if (!dbEnums.has(name)) diffs.push(`enum ${name} is missing`);
      else if (dbEnums.get(name) !== labels) diffs.push(`enum ${name} has labels [${dbEnums.get(name)}], schema says [${labels}]`);
      dbEnums.delete(name);
    }
    for (const name of dbEnums.keys()) diffs.push(`enum ${name} is not in the schema`);

    // Tables and columns: type and nullability, both directions.
    const modelTable = new Map(dm.models.map((m) => [m.name, m.dbName ?? m.name]));
    const dbTables = new Set(tables.map((t) => t.table_name));
    const colOf = (model: DmmfModel, field: string) => {
      const f = model.fields.find((x) => x.name === field);
      return f?.dbName ?? field;
    };
    for (const model of dm.models) {
      const table = modelTable.get(model.name)!;
      if (!dbTables.delete(table)) {
        diffs.push(`table ${table} (model ${model.name}) is missing`);
        continue;
      }
      const dbColumns = new Map(columns.filter((c) => c.table_name === table).map((c) => [c.column_name, c]));
      for (const field of model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')) {
        const name = field.dbName ?? field.name;
        const col = dbColumns.get(name);
        if (!col) {
          diffs.push(`column ${table}.${name} is missing`);
          continue;
        }
        dbColumns.delete(name);
        const want = expectedType(field, enumDbNames);
        if (actualType(col) !== want) diffs.push(`column ${table}.${name} is ${actualType(col)}, schema says ${want}`);
        if ((col.is_nullable === 'NO') !== field.isRequired)
          diffs.push(
            `column ${table}.${name} is ${col.is_nullable === 'NO' ? 'NOT NULL' : 'nullable'}, schema says ${field.isRequired ? 'NOT NULL' : 'nullable'}`,
          );
      }
      for (const name of dbColumns.keys()) diffs.push(`column ${table}.${name} is not in the schema`);
    }
    for (const table of dbTables) diffs.push(`table ${table} is not in the schema`);

    // Indexes: primary key, unique and plain, matched by kind and ordered columns (DESC marked).
    const dbIndexes = new Map(
      indexRows.map((i) => [
        describeIndex(
          i.table_name,
          i.is_primary ? 'primary key' : i.is_unique ? 'unique index' : 'index',
          i.columns.map((c, n) => (c ?? '<expression>') + (i.descending[n] ? ' DESC' : '')),
        ),
        i,
      ]),
    );
    for (const row of indexRows.filter((i) => i.special)) diffs.push(`index ${row.index_name} is partial or on an expression`);
    for (const index of dm.indexes) {
      const model = dm.models.find((m) => m.name === index.model)!;
      const table = modelTable.get(model.name)!;
      const kind = { id: 'primary key', unique: 'unique index', normal: 'index' }[index.type] ?? `${index.type} index`;
      const cols = index.fields.map((f) => colOf(model, f.name));
      const key = describeIndex(
        table,
        kind,
        cols.map((c, n) => c + (index.fields[n]!.sortOrder === 'desc' ? ' DESC' : '')),
      );
      const found = dbIndexes.get(key);
      if (!found) {
        diffs.push(`${key} is missing`);
        continue;
      }
      dbIndexes.delete(key);
      const suffix = { id: 'pkey', unique: 'key', normal: 'idx' }[index.type];
      const name = index.dbName ?? (index.type === 'id' ? `${table}_pkey` : `${table}_${cols.join('_')}_${suffix}`);
      if (name.length <= 63 && found.index_name !== name) diffs.push(`${key} is named ${found.index_name}, Prisma expects ${name}`);
    }
    for (const [key, row] of dbIndexes) diffs.push(`${key} (${row.index_name}) is not in the schema`);

    // Foreign keys: one per relation field that holds the scalar fields, with Prisma's default actions.
    const dbFks = new Map(
      fkRows.map((f) => [`${f.table_name}(${f.columns.join(', ')}) -> ${f.ref_table}(${f.ref_columns.join(', ')})`, f]),
    );
    for (const model of dm.models) {
      for (const field of model.fields.filter((f) => f.kind === 'object' && f.relationFromFields?.length)) {
        const target = dm.models.find((m) => m.name === field.type)!;
        const from = field.relationFromFields!.map((f) => colOf(model, f));
        const to = field.relationToFields!.map((f) => colOf(target, f));
        const key = `${modelTable.get(model.name)}(${from.join(', ')}) -> ${modelTable.get(target.name)}(${to.join(', ')})`;
        const fk = dbFks.get(key);
        if (!fk) {
          diffs.push(`foreign key ${key} (${model.name}.${field.name}) is missing`);
          continue;
        }
        dbFks.delete(key);
        const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
        const onUpdate = field.relationOnUpdate ?? 'Cascade';
        if (ON_ACTION[fk.on_delete] !== onDelete)
          diffs.push(`foreign key ${key} is ON DELETE ${ON_ACTION[fk.on_delete]}, schema says ${onDelete}`);
        if (ON_ACTION[fk.on_update] !== onUpdate)
          diffs.push(`foreign key ${key} is ON UPDATE ${ON_ACTION[fk.on_update]}, schema says ${onUpdate}`);
        const name = `${modelTable.get(model.name)}_${from.join('_')}_fkey`;
        if (name.length <= 63 && fk.name !== name) diffs.push(`foreign key ${key} is named ${fk.name}, Prisma expects ${name}`);
      }
    }
    for (const [key, fk] of dbFks) diffs.push(`foreign key ${key} (${fk.name}) is not in the schema`);
  } finally {
    await client.end();
  }
  return diffs;
}
