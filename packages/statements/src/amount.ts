import { MAX_AMOUNT_DIGITS } from './limits.js';
import { StatementError } from './statement.js';

/** ISO 4217 currencies whose minor unit is not the cent; every other currency has two decimals. */
const DECIMALS: Readonly<Record<string, number>> = {
  JPY: 0,
  KRW: 0,
  CLP: 0,
  ISK: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export function currencyDecimals(currency: string): number {
  return DECIMALS[currency] ?? 2;
}

/** The largest amount (and balance, either sign) a statement may carry, in minor units: {@link MAX_AMOUNT_DIGITS} nines. */
const MAX_MINOR = 10n ** BigInt(MAX_AMOUNT_DIGITS) - 1n;

/**
 * Reads a decimal amount exactly into minor units: digits, then `decimalMark` and at most the currency's number of
 * decimals, at most {@link MAX_AMOUNT_DIGITS} digits of minor units in all. Never goes through a float, so `0.29` is 29
 * kuruş and `9999999999999.99` keeps every digit. `either` takes one comma or one dot (MT940, where old Rabobank files
 * write `500.00`): with no grouping in such a field, a single mark can only be the decimal one, and a text with more
 * decimals than the currency has (`1.500` in TRY) is refused, never read as thousands.
 */
export function parseAmount(
  text: string,
  currency: string,
  where: string,
  options: { decimalMark: '.' | ',' | 'either'; signed?: boolean },
): bigint {
  const mark = { '.': '\\.', ',': ',', either: '[,.]' }[options.decimalMark];
  const trimmed = text.trim();
  // Quoted, and cut: a hostile cell may be megabytes long.
  const shown = JSON.stringify(trimmed.length > 40 ? `${trimmed.slice(0, 40)}...` : trimmed);
  const match = new RegExp(`^([+-]?)(\\d+)(?:${mark}(\\d*))?$`).exec(trimmed);
  if (!match) {
    throw new StatementError(`amount ${shown} is not a decimal number like 1500${options.decimalMark === '.' ? '.' : ','}00`, where);
  }
  const [, sign = '', whole = '', fraction = ''] = match;
  if (sign === '-' && !options.signed) throw new StatementError(`amount ${shown} is negative; the direction gives the sign`, where);
  if (sign === '+' && !options.signed) throw new StatementError(`amount ${shown} has a sign; the direction gives it`, where);
  const decimals = currencyDecimals(currency);
  if (fraction.length > decimals) {
    throw new StatementError(`amount ${shown} has more than ${decimals} decimals for ${currency}`, where);
  }
  // Leading zeros are no digits of the amount; the length is checked before BigInt reads a string of any size.
  const digits = (whole + fraction.padEnd(decimals, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > MAX_AMOUNT_DIGITS) {
    throw new StatementError(
      `amount ${shown} is more than ${MAX_AMOUNT_DIGITS} digits of minor units; at most ${formatAmount(MAX_MINOR, currency)} ${currency}`,
      where,
    );
  }
  const minor = BigInt(digits);
  return sign === '-' ? -minor : minor;
}

/** `-1234.5` lira as `-1234.50`: the form used in messages (no grouping, so it reads the same in any locale). */
export function formatAmount(minor: bigint, currency: string): string {
  const decimals = currencyDecimals(currency);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${digits.slice(-decimals)}`;
}
