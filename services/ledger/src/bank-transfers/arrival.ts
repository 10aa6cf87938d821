import type { DepositStatus } from '@kasa/db';

/** Why a transfer waits in the unmatched queue for an operator. */
export type UnmatchedReason = 'no_reference' | 'unknown_reference' | 'ambiguous_reference' | 'intent_closed';

/** Each in the words an operator reads (the import's answer lists them with each line). */
export const UNMATCHED_REASON_TEXTS = {
  no_reference: 'the description carries no deposit reference',
  unknown_reference: 'the reference it carries names no deposit',
  ambiguous_reference: 'it carries the references of several deposits',
  intent_closed: 'the deposit it names was approved or rejected already',
} as const satisfies Record<UnmatchedReason, string>;

export interface ArrivalEffect {
  to: DepositStatus;
  /** The intent was still RESERVED although past its expiry: it is cancelled on the way to LATE_ARRIVAL. */
  cancels: boolean;
  /** The expiry sweep cancelled the deposit, but the money had arrived in time: the cancellation is undone. */
  reinstates: boolean;
}

/**
 * What money arriving for an intent does to it. On time or late is judged by the bank's `receivedAt`,
 * never by when the transfer is recorded: money that reached the bank by `expiresAt` (plus `skewMs`, the
 * allowance for the bank's clock and ours differing) is on time even if an operator records it after the
 * expiry sweep ran.
 * - RESERVED or AUTO_CANCELLED, on time -> PENDING_REVIEW (an AUTO_CANCELLED intent is reinstated);
 * - RESERVED, late (the expiry sweep has not run yet) -> LATE_ARRIVAL, cancelled on the way, exactly as if
 *   the expiry had run first;
 * - AUTO_CANCELLED, late -> LATE_ARRIVAL;
 * - PENDING_REVIEW or LATE_ARRIVAL: a further transfer adds to the received amount, the status stays;
 * - APPROVED or REJECTED: decided already; the transfer goes to the unmatched queue (null).
 */
export function arrivalEffect(deposit: { status: DepositStatus; expiresAt: Date }, receivedAt: Date, skewMs: number): ArrivalEffect | null {
  const onTime = receivedAt.getTime() <= deposit.expiresAt.getTime() + skewMs;
  switch (deposit.status) {
    case 'RESERVED':
      return onTime
        ? { to: 'PENDING_REVIEW', cancels: false, reinstates: false }
        : { to: 'LATE_ARRIVAL', cancels: true, reinstates: false };
    case 'AUTO_CANCELLED':
      return onTime
        ? { to: 'PENDING_REVIEW', cancels: false, reinstates: true }
        : { to: 'LATE_ARRIVAL', cancels: false, reinstates: false };
    case 'PENDING_REVIEW':
    case 'LATE_ARRIVAL':
      return { to: deposit.status, cancels: false, reinstates: false };
    case 'APPROVED':
    case 'REJECTED':
      return null;
  }
}
