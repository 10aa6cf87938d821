import type { DepositStatus } from '@kasa/db';

/** Why a transfer waits in the unmatched queue for an operator. */
export type UnmatchedReason = 'no_reference' | 'unknown_reference' | 'ambiguous_reference' | 'intent_closed';

export interface ArrivalEffect {
  to: DepositStatus;
  /** The intent was still RESERVED although past its expiry: it is cancelled on the way to LATE_ARRIVAL. */
  cancels: boolean;
}

/**
 * What money arriving for an intent does to it (DESIGN section 3):
 * - RESERVED and the transfer arrived by `expiresAt` (the bank's `receivedAt`) -> PENDING_REVIEW;
 * - RESERVED but arrived after `expiresAt` (the expiry sweep has not run yet) -> LATE_ARRIVAL, cancelled on
 *   the way, exactly as if the expiry had run first;
 * - AUTO_CANCELLED -> LATE_ARRIVAL;
 * - PENDING_REVIEW or LATE_ARRIVAL: a further transfer adds to the received amount, the status stays;
 * - APPROVED or REJECTED: decided already; the transfer goes to the unmatched queue (null).
 */
export function arrivalEffect(intent: { status: DepositStatus; expiresAt: Date }, receivedAt: Date): ArrivalEffect | null {
  switch (intent.status) {
    case 'RESERVED':
      return receivedAt.getTime() <= intent.expiresAt.getTime() ? { to: 'PENDING_REVIEW', cancels: false } : { to: 'LATE_ARRIVAL', cancels: true };
    case 'AUTO_CANCELLED':
      return { to: 'LATE_ARRIVAL', cancels: false };
    case 'PENDING_REVIEW':
    case 'LATE_ARRIVAL':
      return { to: intent.status, cancels: false };
    case 'APPROVED':
    case 'REJECTED':
      return null;
  }
}
