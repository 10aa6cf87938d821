import { Prisma } from '@kasa/db';

type Tx = Prisma.TransactionClient;

/**
 * Writes that can ride on another statement of the same transaction as its data-modifying WITH queries: a
 * transition's audit entry and event, sent with its journal posting or with each other (transition.ts). One round
 * trip to PostgreSQL instead of one each; each of them runs exactly once, whether or not the statement reads it.
 */
export type Writes = readonly Prisma.Sql[];

/** The writes as WITH queries, `w0 AS (...), w1 AS (...)`. */
const named = (writes: Writes) =>
  Prisma.join(
    writes.map((write, index) => Prisma.sql`${Prisma.raw(`w${index}`)} AS (${write})`),
    ', ',
  );

/** `w0 AS (...), w1 AS (...), ` for the head of a statement's own WITH list; empty without writes. */
export function writesAhead(writes: Writes): Prisma.Sql {
  return writes.length === 0 ? Prisma.empty : Prisma.sql`${named(writes)}, `;
}

/** Sends the writes in one statement: the last one as the statement, the others in its WITH list. */
export async function writeTogether(tx: Tx, writes: Writes): Promise<void> {
  const last = writes[writes.length - 1];
  if (!last) return;
  const ahead = writes.slice(0, -1);
  await tx.$executeRaw(ahead.length === 0 ? last : Prisma.sql`WITH ${named(ahead)} ${last}`);
}
