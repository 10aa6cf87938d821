import { FIRST_YEAR, LAST_YEAR } from './limits.js';
import { StatementError } from './statement.js';

/**
 * Turkey has kept UTC+03:00 all year since 2016, so a bank's date-time without an offset is read as Istanbul time
 * rather than as the server's local time.
 */
const TURKEY_OFFSET = '+03:00';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * A calendar day as midnight UTC of that day, after checking the day exists (no 2025-02-30) and is in the years a
 * statement may name ({@link FIRST_YEAR} to {@link LAST_YEAR}).
 */
export function calendarDay(year: number, month: number, day: number, where: string, text: string): Date {
  if (year < FIRST_YEAR || year > LAST_YEAR) {
    throw new StatementError(`date ${JSON.stringify(text)} is outside the years ${FIRST_YEAR} to ${LAST_YEAR}`, where);
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new StatementError(`date ${JSON.stringify(text)} does not exist`, where);
  }
  return date;
}

/** Whether a date {@link parseIsoDate} reads carries a time of day (`2025-03-14T10:15`), not a date alone (`2025-03-14`). */
export const hasTimeOfDay = (text: string): boolean => !DATE.test(text.trim());

/**
 * A value or balance date as a bank counting interest in 30-day months writes it (German banks book quarterly interest
 * "valuta 30 February"): a day 29 to 31 past its month's end is that month's last day, as the bank meant it. Anything
 * else that is no calendar day (day 32, month 13, day 0) is refused as by {@link calendarDay}. An entry date is a real
 * booking day and goes through calendarDay itself.
 */
export function calendarDayOrMonthEnd(year: number, month: number, day: number, where: string, text: string): Date {
  const monthEnd = month >= 1 && month <= 12 ? new Date(Date.UTC(year, month, 0)).getUTCDate() : 0;
  return calendarDay(year, month, day > monthEnd && day <= 31 && monthEnd > 0 ? monthEnd : day, where, text);
}

/** `2025-03-14` (midnight UTC of that day) or `2025-03-14T10:15:00[.sss][Z|±hh:mm]` (Istanbul time when no offset). */
export function parseIsoDate(text: string, where: string): Date {
  const trimmed = text.trim();
  const day = DATE.exec(trimmed);
  if (day) return calendarDay(Number(day[1]), Number(day[2]), Number(day[3]), where, trimmed);
  const moment = DATE_TIME.exec(trimmed);
  if (moment) {
    calendarDay(Number(moment[1]), Number(moment[2]), Number(moment[3]), where, trimmed);
    const date = new Date(moment[7] ? trimmed : trimmed + TURKEY_OFFSET);
    if (!Number.isNaN(date.getTime())) return date;
  }
  const shown = trimmed.length > 40 ? `${trimmed.slice(0, 40)}...` : trimmed;
  throw new StatementError(`date ${JSON.stringify(shown)} is not YYYY-MM-DD or an ISO 8601 date-time`, where);
}
