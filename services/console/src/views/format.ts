/** How the console writes money, IBANs and times for operators. Money stays bigint/string: never a float. */
import { maskIban as maskForLogs } from '@kasa/logger';

/** 150000 kurus -> "1.500,00 ₺" (Turkish grouping and decimal comma). */
export function formatTry(minor: string | null | undefined): string {
  if (minor === null || minor === undefined || !/^-?\d+$/.test(minor)) return '—';
  const value = BigInt(minor);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const lira = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${lira},${(abs % 100n).toString().padStart(2, '0')} ₺`;
}

/**
 * An operator's lira input ("1500", "1500,5", "1500.50") -> kurus as a digit string, or null when it is
 * not a positive amount with at most two decimals. Thousands separators are refused rather than guessed:
 * "1.500" means 1500 lira to a Turkish reader and 1.5 to an English one.
 */
export function parseTryInput(input: string): string | null {
  const match = /^(\d{1,16})(?:[.,](\d{1,2}))?$/.exec(input.trim());
  if (!match) return null;
  const minor = BigInt(match[1] as string) * 100n + BigInt((match[2] ?? '0').padEnd(2, '0'));
  return minor > 0n ? minor.toString() : null;
}

/** Kurus -> the plain lira form an input field shows ("1500,50"). */
export function tryInputValue(minor: string | null | undefined): string {
  if (!minor || !/^\d+$/.test(minor)) return '';
  const value = BigInt(minor);
  return `${value / 100n},${(value % 100n).toString().padStart(2, '0')}`;
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

const TIME = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Istanbul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** ISO instant -> "2026-01-31 15:00:05" in Türkiye time, where operators and banks work. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '—' : TIME.format(date);
}

/** The first block of a UUID: enough to tell rows apart on screen; the full id is in the link and title. */
export function shortId(id: string | null | undefined): string {
  return id ? id.slice(0, 8) : '—';
}
