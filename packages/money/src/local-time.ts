/**
 * How people read an instant beside an amount on every Kasa surface (console, CLI, Excel exports): in the desk's
 * zone, in the order Turkish desks and banks write it, `28.11.2026 14:05:03`, 24-hour.
 */

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The formatter of `timeZone`; throws a RangeError for a zone this Node's Intl does not know. */
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    FORMATS.set(timeZone, format);
  }
  return format;
}

/** Whether `timeZone` is an IANA zone this Node knows (Europe/Istanbul, UTC). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** `date` in `timeZone` as `dd.mm.yyyy hh:mm:ss`, assembled from parts so no ICU version's punctuation slips in. */
export function formatLocalTime(date: Date, timeZone: string): string {
  const part = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(date)
      .map(({ type, value }) => [type, value]),
  );
  return `${part.day}.${part.month}.${part.year} ${part.hour}:${part.minute}:${part.second}`;
}

/** A calendar day as the API and banks send it, `2026-01-31`, as `31.01.2026`; anything else as it came. */
export function formatLocalDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : day;
}
