import { AppError } from '@kasa/http';
import { isUniqueViolation } from './unique-violation.js';

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

/** One create attempt's outcome: the new row, or null when the idempotency key already has one. */
export interface CreateOnce<Inserted, Existing extends { idempotencyFingerprint: string }, Body> {
  /** Inserts unless the key exists; a fresh reference number each call (a collision is retried). */
  insert(): Promise<Inserted | null>;
  /** The row this idempotency key already created. */
  findExisting(): Promise<Existing | null>;
  fingerprint: string;
  toBody(row: Inserted | Existing): Body;
}

/**
 * The create-with-idempotency loop every partner create shares: insert unless the (site, key) exists; if it
 * does, the same body replays the stored record and another body is `idempotency_key_reused`. A reference
 * number that collides with an existing one (1 in billions) is drawn again, a few times at most.
 */
export async function createOnce<Inserted, Existing extends { idempotencyFingerprint: string }, Body>(
  create: CreateOnce<Inserted, Existing, Body>,
): Promise<Idempotent<Body>> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let inserted: Inserted | null;
    try {
      inserted = await create.insert();
    } catch (error) {
      if (isUniqueViolation(error, 'reference_no')) continue;
      throw error;
    }
    if (inserted) return { replayed: false, body: create.toBody(inserted) };
    const existing = await create.findExisting();
    if (!existing) continue;
    if (existing.idempotencyFingerprint !== create.fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
    }
    return { replayed: true, body: create.toBody(existing) };
  }
  throw new AppError('service_unavailable', 'Could not allocate a reference number; retry with the same Idempotency-Key.');
}
