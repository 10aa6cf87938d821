import { Prisma } from '@kasa/db';

/** Takes the row lock on one record (`SELECT ... FOR UPDATE`) for the rest of the transaction; false when there is no such row. */
export async function lockRow(
  tx: Prisma.TransactionClient,
  table: 'deposit_intents' | 'withdrawals' | 'bank_transfers' | 'sender_returns' | 'sites',
  id: string,
): Promise<boolean> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>(
    Prisma.sql`SELECT id::text FROM ${Prisma.raw(table)} WHERE id = ${id}::uuid FOR UPDATE`,
  );
  return locked.length > 0;
}

/** A model's column (snake_case in the schema's @map) read as its Prisma field, enums as their text. */
const columnOf = (field: string, enums: readonly string[]) =>
  `${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}${enums.includes(field) ? '::text' : ''} AS "${field}"`;

/**
 * Takes the row lock on one record and reads it in the same statement (`SELECT <fields> ... FOR UPDATE`): one round
 * trip where {@link lockRow} and a read take two, and the row read is the one locked (its latest committed version).
 * `fields`: the model's scalar fields (Prisma's `<Model>ScalarFieldEnum`), each read as Prisma's own query returns it;
 * `enums` among them are read as text. Null when there is no such row.
 */
export async function lockAndRead<Row>(
  tx: Prisma.TransactionClient,
  table: 'deposit_intents' | 'withdrawals',
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
