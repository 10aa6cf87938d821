import { AppError } from '@kasa/http';

/** A create's answer: `replayed` when the idempotency key had already produced this record. */
export interface Idempotent<T> {
  replayed: boolean;
  body: T;
}

export function assertAmountWithinSiteBounds(site: { minAmount: bigint; maxAmount: bigint }, amount: bigint): void {
  if (amount < site.minAmount || amount > site.maxAmount) {
    throw AppError.validation(
      [{ field: 'amount', message: `must be between ${site.minAmount} and ${site.maxAmount} (minor units)` }],
      'The amount is outside the limits of this site.',
    );
  }
}

/** True for a PostgreSQL unique violation (23505), optionally only when it names `hint` (a column or constraint). */
export function isUniqueViolation(error: unknown, hint?: string): boolean {
  const text = (() => {
    try {
      return `${String((error as Error)?.message)} ${JSON.stringify(error)}`;
    } catch {
      return String((error as Error)?.message);
    }
  })();
  const unique = text.includes('23505') || text.includes('Unique constraint') || text.includes('P2002');
  return unique && (hint === undefined || text.includes(hint));
}
