import { bookingDay } from '../shared/istanbul-day.js';
import type { NewBankTransfer } from './bank-transfer.repository.js';

/**
 * A bank line's identity on its receiving account (docs/statements.md, "Which lines are the same line"): the bank's
 * reference, the direction, the amount, the booking day and the line's occurrence among the lines of its batch (one
 * statement, or one connector request) sharing all four, e.g. `NONREF|C|15000|2026-11-20|2`.
 *
 * The reference alone is not an identity: real files repeat it inside one file (MT940 `NONREF`, a payer's IBAN as
 * the customer reference, camt batch transactions sharing the entry's `AcctSvcrRef`). The rest tells such lines apart,
 * while the same file again, an overlapping statement, or an intraday then an end-of-day statement of the same day
 * give every line the key it had (same lines, same order), so nothing is recorded twice.
 */

/** Calendar days between two bookings (Istanbul), whatever their order. */
export function daysApart(a: Date, b: Date): number {
  return Math.abs(Date.parse(bookingDay(a)) - Date.parse(bookingDay(b))) / 86_400_000;
}

export interface KeyedLine {
  bankTxId: string;
  direction: 'credit' | 'debit';
  amount: bigint;
  bookedAt: Date;
}

/** The key of a line that is the `occurrence`-th (1 for the first) of its batch with these reference, direction, amount and day. */
export function lineKeyOf(line: KeyedLine, occurrence = 1): string {
  return [line.bankTxId, line.direction === 'credit' ? 'C' : 'D', line.amount.toString(), bookingDay(line.bookedAt), occurrence].join('|');
}

/**
 * The key of every line of one batch, numbering the lines that share reference, direction, amount and day in batch
 * order. A batch read a part at a time passes the same `seen` (the occurrences so far) with each part, in order.
 */
export function lineKeysOf<L extends KeyedLine>(lines: readonly L[], seen = new Map<string, number>()): Map<L, string> {
  const keys = new Map<L, string>();
  for (const line of lines) {
    // `reference|D|amount|day|` once per line: the occurrence is all that differs.
    const base = lineKeyOf(line, 0).slice(0, -1);
    const occurrence = (seen.get(base) ?? 0) + 1;
    seen.set(base, occurrence);
    keys.set(line, `${base}${occurrence}`);
  }
  return keys;
}

/** A transfer's line key: the one its batch gave it, else its own as the first of a batch (an operator's, the simulator's). */
export function transferLineKey(transfer: NewBankTransfer): string {
  return transfer.lineKey ?? lineKeyOf({ ...transfer, direction: 'credit', bookedAt: transfer.receivedAt });
}
