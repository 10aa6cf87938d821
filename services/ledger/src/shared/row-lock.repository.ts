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
