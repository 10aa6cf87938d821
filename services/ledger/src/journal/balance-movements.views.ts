import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType, type ResponseOf } from '@kasa/contracts';
import type { BalanceMovementRow } from './balance-movements.repository.js';

export type BalanceTransaction = ResponseOf<'BalanceTransaction'>;
export type BalanceStatementMovement = ResponseOf<'BalanceStatementMovement'>;

const BALANCE_OF = { site_available: 'available', site_reserved: 'reserved' } as const;

/**
 * A movement as the partner reads it: the balance it moved, signed from the site's side (a liability's credit, negative
 * in the journal, adds to what the site is owed), what caused it and the record's partner-facing ids. Nothing else of
 * the journal (accounts, transaction ids) or of the record (operators, notes, review state) goes out.
 */
export function toBalanceTransaction(row: BalanceMovementRow): BalanceTransaction {
  const balance = BALANCE_OF[row.account as keyof typeof BALANCE_OF];
  const type = BALANCE_TRANSACTION_TYPES.find((known) => known === row.type);
  // The journal check names such an entry (unclassified_movement); a partner is never shown a guess.
  if (!balance || !type || !row.referenceNo) throw new Error(`journal entry ${row.id} is no balance movement a partner can be shown`);
  return {
    id: row.id,
    balance,
    type: type satisfies BalanceTransactionType,
    amount: (-row.amount).toString(),
    currency: 'TRY',
    intentId: row.entityType === 'deposit_intent' ? row.entityId : null,
    withdrawalId: row.entityType === 'withdrawal' ? row.entityId : null,
    referenceNo: row.referenceNo,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A day's movements, oldest first, each with the balance it left, and the closing balances they lead to. */
export function toStatementMovements(
  opening: Partial<Record<string, bigint>>,
  rows: readonly BalanceMovementRow[],
): { movements: BalanceStatementMovement[]; closing: { available: string; reserved: string } } {
  const running = { available: -(opening.site_available ?? 0n), reserved: -(opening.site_reserved ?? 0n) };
  const movements = rows.map((row) => {
    const item = toBalanceTransaction(row);
    running[item.balance] += BigInt(item.amount);
    return { ...item, balanceAfter: running[item.balance].toString() };
  });
  return { movements, closing: { available: running.available.toString(), reserved: running.reserved.toString() } };
}
