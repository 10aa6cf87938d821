/**
 * Machine amounts: every API, webhook and database column carries money as integer minor units (kuruş).
 * On the wire that is a string of digits; inside the code it is a bigint.
 */

/** Digits of a positive minor-unit amount, no sign, no leading zero, at most 18 digits (fits PostgreSQL bigint). */
export const MINOR_UNITS_PATTERN = '^[1-9][0-9]{0,17}$';

/** The largest amount any surface accepts: 18 nines of kuruş, about 10^16 TRY. */
export const MAX_MINOR_UNITS = 10n ** 18n - 1n;

const MINOR_UNITS = new RegExp(MINOR_UNITS_PATTERN);

/** True for the wire form of a positive amount ("150000"). */
export function isMinorUnits(value: unknown): value is string {
  return typeof value === 'string' && MINOR_UNITS.test(value);
}
