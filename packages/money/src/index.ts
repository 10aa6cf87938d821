/**
 * @kasa/money: one meaning for an amount on every surface. Machines exchange minor units (kuruş) as digit
 * strings; people type and read lira. Amounts are bigint inside, never floats. Beside an amount people read its time,
 * written the same Turkish way on every surface (local-time.ts).
 */
export { MINOR_UNITS_PATTERN, MAX_MINOR_UNITS, isMinorUnits } from './minor-units.js';
export { parseLira, parseLiraToMinorUnits, MoneyInputError, LIRA_EXAMPLES } from './parse-lira.js';
export { formatLira, formatTry, liraInputValue } from './format.js';
export { formatLocalTime, formatLocalDay, isKnownTimeZone } from './local-time.js';
