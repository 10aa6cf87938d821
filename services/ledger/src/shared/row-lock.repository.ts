import { Prisma, type TableName } from '@kasa/db';

/**
 * Takes the row lock on one record (`SELECT ... FOR UPDATE`) for the rest of the transaction; false when there is no such
 * row. `table`: one of the schema's (`TableName`, written from prisma/schema.prisma by setup), never a caller's text.
 */
export async function lockRow(tx: Prisma.TransactionClient, table: TableName, id: string): Promise<boolean> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>(
    Prisma.sql`SELECT id::text FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return locked.length > 0;
}

/** A model field's column: its name in snake_case (the schema's @map). */
const columnName = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A model's column read as its Prisma field, enums as their text; `alias` qualifies it (a join, an update's FROM). */
const columnOf = (field: string, enums: readonly string[], alias = '') =>
  `${alias ? `${alias}.` : ''}${columnName(field)}${enums.includes(field) ? '::text' : ''} AS "${field}"`;

/**
 * A model's scalar fields (Prisma's `<Model>ScalarFieldEnum`) as a raw statement's select or RETURNING list, each read
 * as Prisma's own query returns it (`enums` among them as text): a row locked, inserted or written is read in the
 * statement that does it, not by a second query.
 */
export function columnsOf(fields: Readonly<Record<string, string>>, enums: readonly string[], alias = ''): Prisma.Sql {
  return Prisma.raw(
    Object.values(fields)
      .map((field) => columnOf(field, enums, alias))
      .join(', '),
  );
}

/**
 * Takes the row lock on one record and reads it in the same statement (`SELECT <fields> ... FOR UPDATE`): one round
 * trip where {@link lockRow} and a read take two, and the row read is the one locked (its latest committed version).
 * `fields`: the model's scalar fields (Prisma's `<Model>ScalarFieldEnum`), each read as Prisma's own query returns it;
 * `enums` among them are read as text. Null when there is no such row.
 */
export async function lockAndRead<Row>(
  tx: Prisma.TransactionClient,
  table: TableName,
  fields: Readonly<Record<string, string>>,
  enums: readonly string[],
  id: string,
): Promise<Row | null> {
  const columns = Object.values(fields)
    .map((field) => columnOf(field, enums))
    .join(', ');
  const rows = await tx.$queryRaw<Row[]>(
    Prisma.sql`SELECT ${Prisma.raw(columns)} FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return rows[0] ?? null;
}

/** A value as a raw statement's parameter: times in ISO form (with their zone), money as text, JSON fields serialized. */
function parameterOf(table: string, field: string, value: unknown, json: readonly string[]): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (json.includes(field)) return JSON.stringify(value);
  if (value !== null && typeof value === 'object') throw new Error(`${table}.${field}: only plain values are written here`);
  return value;
}

/**
 * The conditional write of a record locked by this transaction, in one raw statement that returns the row as
 * {@link lockAndRead} reads it (`UPDATE ... WHERE id AND status RETURNING`), as `updateFrom` (site-records/review-filters.ts) does
 * through Prisma's update: the fields given (plain values; `json` names the JSON fields) and `updatedAt` now. Null when the record is
 * no longer in `from` (or there is no such row).
 */
export async function updateAndRead<Row>(
  tx: Prisma.TransactionClient,
  table: TableName,
  fields: Readonly<Record<string, string>>,
  enums: readonly string[],
  json: readonly string[],
  id: string,
  from: string,
  data: Readonly<Record<string, unknown>>,
): Promise<Row | null> {
  const known = new Set(Object.values(fields));
  const sets = Object.entries({ ...data, updatedAt: new Date() })
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      if (!known.has(field)) throw new Error(`${table}: no field ${field}`);
      return Prisma.sql`${Prisma.raw(columnName(field))} = ${parameterOf(table, field, value, json)}`;
    });
  const columns = Object.values(fields)
    .map((field) => columnOf(field, enums))
    .join(', ');
  const rows = await tx.$queryRaw<Row[]>(
    Prisma.sql`UPDATE ${Prisma.raw(table)} SET ${Prisma.join(sets)} WHERE id = ${id}::uuid AND status = ${from}
      RETURNING ${Prisma.raw(columns)}`,
  );
  return rows[0] ?? null;
}
