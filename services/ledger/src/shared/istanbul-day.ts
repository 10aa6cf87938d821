import { BALANCE_STATEMENT_TIME_ZONE } from '@kasa/contracts';
import { AppError } from '@kasa/http';

/** Turkey has kept UTC+03:00 all year since 2016 (as packages/statements reads a time without an offset). */
const ISTANBUL_OFFSET_MS = 3 * 3_600_000;

/**
 * The Istanbul calendar day `at` falls on, `YYYY-MM-DD`: a bank line's booking day (a statement's date-only line,
 * midnight UTC of its day, and a connector's line with a time on that day both land on the day the bank booked them),
 * the day a history seal covers.
 */
export function bookingDay(at: Date): string {
  return new Date(at.getTime() + ISTANBUL_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Istanbul calendar day `at` falls on, from its first to its last millisecond: what a date given alone means. */
export function istanbulDayAt(at: Date): { start: Date; end: Date } {
  const start = Date.parse(bookingDay(at)) - ISTANBUL_OFFSET_MS;
  return { start: new Date(start), end: new Date(start + 86_400_000 - 1) };
}

/**
 * `[from, to)` of a calendar day in Europe/Istanbul, as UTC instants. An entry belongs to the day its `created_at`
 * falls in there. A malformed or impossible date is a 400 naming `date`.
 */
export function istanbulDayNamed(date: string): { from: Date; to: Date } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const noon = new Date(Date.UTC(year, month - 1, day, 12));
  if (!match || year < 2000 || noon.getUTCFullYear() !== year || noon.getUTCMonth() !== month - 1 || noon.getUTCDate() !== day) {
    throw AppError.validation(
      [{ field: 'date', message: 'must be a calendar day written YYYY-MM-DD, e.g. 2026-01-31' }],
      'The date is not valid.',
    );
  }
  return { from: localMidnight(year, month, day), to: localMidnight(year, month, day + 1) };
}

/** The UTC instant of 00:00 on a day in the statements' time zone (Date.UTC carries an overflowing day into the next month). */
function localMidnight(year: number, month: number, day: number): Date {
  const guess = Date.UTC(year, month - 1, day);
  // Twice: the zone's offset at the first estimate may differ from the one at midnight across a change of offset.
  let instant = guess - offsetAt(guess);
  instant = guess - offsetAt(instant);
  return new Date(instant);
}

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: BALANCE_STATEMENT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** The zone's offset from UTC at an instant, in ms (Istanbul: +3 h since 2016). */
function offsetAt(instant: number): number {
  const part = (type: string) => Number(PARTS.formatToParts(instant).find((p) => p.type === type)?.value);
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return local - Math.floor(instant / 1000) * 1000;
}
