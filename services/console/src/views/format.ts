/** How the console writes money, IBANs and times for operators. Money stays bigint/string: never a float. */
import { maskIban as maskForLogs } from '@kasa/logger';
import { formatLira, formatLocalDay, formatLocalTime, MoneyInputError, parseLiraToMinorUnits } from '@kasa/money';
import { currentTimeZone } from '../i18n/locale.js';

export { formatTry } from '@kasa/money';

/**
 * 150000 -> "1.500,00": an amount in an input field (a value or a placeholder) written as the tables write it,
 * so an operator sees one form everywhere; {@link readLira} takes that form back as the same amount.
 */
export function liraInputValue(minor: bigint | string | null | undefined): string {
  return formatLira(minor);
}

/**
 * What an operator typed into a lira field -> kuruş digits for the ops API, or the reason it is not an
 * amount. Every surface reads typed amounts as lira through @kasa/money, so "1500", "1500,00" and
 * "1.500,00" are one amount here, in the kasa CLI and on the API's minor units.
 */
export function readLira(typed: string): { minor: string } | { problem: string } {
  try {
    return { minor: parseLiraToMinorUnits(typed) };
  } catch (error) {
    if (error instanceof MoneyInputError) return { problem: error.message };
    throw error;
  }
}

/** "TR33 0006 1005 1978 6457 8413 26": grouped for reading it aloud or typing it into a bank's form. */
export function groupIban(iban: string): string {
  return iban
    .replace(/\s+/g, '')
    .replace(/(.{4})/g, '$1 ')
    .trim();
}

/** Everywhere but the payout view: country code and the last four characters only. */
export function maskIban(iban: string | null | undefined): string {
  return iban ? maskForLogs(iban) : '—';
}

/** ISO instant -> "31.01.2026 15:00:05" in the desk's time zone (CONSOLE_TIME_ZONE, Europe/Istanbul by default). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : formatLocalTime(date, currentTimeZone());
}

/** A calendar day "2026-01-31" (as the ledger and banks send it) -> "31.01.2026". */
export const formatDay = formatLocalDay;

/**
 * When the bank booked a line: its time in the desk's zone, or the date alone when the bank gave no time (MT940): such
 * a line is stored at midnight UTC of its day, which {@link formatTime} would show as a 03:00 the bank never said.
 */
export function formatBooked(iso: string | null | undefined, timeKnown: boolean): string {
  if (timeKnown) return formatTime(iso);
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? formatDay(date.toISOString().slice(0, 10)) : '—';
}

/** The first block of a UUID: enough to tell rows apart on screen; the full id is in the link and title. */
export function shortId(id: string | null | undefined): string {
  return id ? id.slice(0, 8) : '—';
}
