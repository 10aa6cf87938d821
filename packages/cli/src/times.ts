/**
 * How kasa prints an instant: in the operator's zone, in the order Turkish desks and banks write it
 * (`28.11.2026 14:05:03`), or as the API's UTC ISO text with `--utc`, for scripts that read the tables.
 * `--json` always keeps the API's ISO text.
 */
import { formatLocalTime, isKnownTimeZone } from '@kasa/money';

/** The zone times are printed in when KASA_TIME_ZONE is not set: where the operators work. */
export const DEFAULT_TIME_ZONE = 'Europe/Istanbul';

/** ISO instant -> the text a table or a sentence shows; null and undefined stay empty. */
export type TimeFormat = (iso: string | null | undefined) => string;

/** Thrown for a KASA_TIME_ZONE this Node's Intl does not know; the CLI stops before any request. */
export class TimeZoneError extends Error {}

/** The API's own text: UTC ISO 8601. */
export const utcTimes: TimeFormat = (iso) => iso ?? '';

/**
 * Times in `timeZone` (an IANA name such as Europe/Istanbul) as `dd.mm.yyyy hh:mm:ss`, 24-hour. A value that is not an
 * instant is printed as it came, so a changed field never hides what the API said.
 */
export function localTimes(timeZone: string): TimeFormat {
  if (!isKnownTimeZone(timeZone))
    throw new TimeZoneError(`KASA_TIME_ZONE must be an IANA time zone such as ${DEFAULT_TIME_ZONE}, got "${timeZone}"`);
  return (iso) => {
    if (iso === null || iso === undefined) return '';
    const date = new Date(iso);
    return !ISO_INSTANT.test(iso) || Number.isNaN(date.getTime()) ? iso : formatLocalTime(date, timeZone);
  };
}

/** The instants the ops API writes: a date, a time and a zone (`2026-11-28T11:05:03.120Z`, `...+03:00`). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The zone from the environment (KASA_TIME_ZONE) or the default; `--utc` asks for the API's own text. */
export function timeFormatFor(env: Record<string, string | undefined>, utc: boolean): TimeFormat {
  if (utc) return utcTimes;
  const zone = env.KASA_TIME_ZONE?.trim();
  return localTimes(zone ? zone : DEFAULT_TIME_ZONE);
}

/**
 * A record with every instant in it printed by `time`, at any depth: a field named `...At` (createdAt, expiresAt),
 * `...Since` or `asOf` whose value is a string. Other fields are kept as they are.
 */
export function withTimes(value: unknown, time: TimeFormat): unknown {
  if (Array.isArray(value)) return value.map((item) => withTimes(item, time));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      typeof field === 'string' && TIME_FIELD.test(key) ? time(field) : withTimes(field, time),
    ]),
  );
}

const TIME_FIELD = /(At|Since|^asOf)$/;

/**
 * When a bank booked a line: its time, or its day alone (`28.11.2026`) when the bank gave no time of day (MT940): such a
 * line is stored at midnight UTC of its day, which a zone would print as a 03:00 the bank never said.
 */
export function bookedTime(time: TimeFormat, iso: string, timeKnown: boolean): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})T/.exec(iso);
  if (timeKnown || time === utcTimes || !day) return time(iso);
  return `${day[3]}.${day[2]}.${day[1]}`;
}
