/**
 * What a person types is lira, on every surface (console forms, kasa CLI flags): "1500", "1500,50",
 * "1500.50", "1.500,00", "1,500.00" and "1 500,00" all mean the same amount. What could be read two ways
 * ("1.500" is 1500 lira to a Turkish reader and 1.5 to an English one) is refused, never guessed.
 */
import { MAX_MINOR_UNITS } from './minor-units.js';

/** A typed amount that is not one; `message` completes "amount ..." and is safe to show the person. */
export class MoneyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyInputError';
  }
}

export const LIRA_EXAMPLES = 'such as 1500, 1500,50 or 1.500,50';

// Currency marks a person may add on either side; case-insensitive.
const CURRENCY = /^(?:₺|TL|TRY)\s*|\s*(?:₺|TL|TRY)$/giu;
// Spaces people and spreadsheets put between digit groups: space, no-break space, narrow no-break space.
const GROUP_SPACE = /[\u0020\u00a0\u202f]/g;

/** Reads a typed lira amount into kuruş; throws MoneyInputError saying what is wrong. */
export function parseLira(input: string): bigint {
  if (typeof input !== 'string' || input.length > 64) throw new MoneyInputError(`must be a lira amount ${LIRA_EXAMPLES}`);
  const text = input.trim().replace(CURRENCY, '').trim();
  if (text === '') throw new MoneyInputError('is empty: type a lira amount');
  if (/^[+-]/.test(text)) throw new MoneyInputError('must be a positive amount without a sign');
  if (!/^\d[\d., \u00a0\u202f]*$/.test(text)) throw new MoneyInputError(`must be a lira amount ${LIRA_EXAMPLES}`);

  const { whole, fraction } = splitDecimal(text);
  const minor = BigInt(wholeDigits(whole)) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (minor === 0n) throw new MoneyInputError('must be more than zero');
  if (minor > MAX_MINOR_UNITS) throw new MoneyInputError('is too large');
  return minor;
}

/** parseLira, as the minor-unit string the APIs take. */
export function parseLiraToMinorUnits(input: string): string {
  return parseLira(input).toString();
}

function splitDecimal(text: string): { whole: string; fraction: string } {
  const dots = count(text, '.');
  const commas = count(text, ',');
  if (dots > 0 && commas > 0) {
    // Both marks: the last one is the decimal mark and may appear once; the other groups thousands.
    const decimal = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
    if (count(text, decimal) > 1) throw new MoneyInputError(`mixes "." and "," in a way that is not an amount ${LIRA_EXAMPLES}`);
    return withFraction(text, decimal, decimal === ',' ? '.' : ',');
  }
  const mark = dots > 0 ? '.' : commas > 0 ? ',' : null;
  if (mark === null) return { whole: text, fraction: '' };
  if ((mark === '.' ? dots : commas) > 1) return { whole: text, fraction: '' }; // "1.500.000": grouping only
  const after = text.length - text.indexOf(mark) - 1;
  if (after === 3 && /^\d{1,3}[.,]\d{3}$/.test(text)) {
    throw new MoneyInputError(
      `"${text}" can be read two ways: write 1500 for one thousand five hundred lira, or 1,50 for one lira fifty kuruş`,
    );
  }
  return withFraction(text, mark, null);
}

function withFraction(text: string, decimal: string, grouping: string | null): { whole: string; fraction: string } {
  const at = text.lastIndexOf(decimal);
  const fraction = text.slice(at + 1);
  if (!/^\d{1,2}$/.test(fraction)) throw new MoneyInputError('must have one or two digits after the decimal mark (kuruş)');
  const whole = text.slice(0, at);
  if (grouping !== null && /[ \u00a0\u202f]/.test(whole)) throw new MoneyInputError('uses two different thousands separators');
  return { whole, fraction };
}

/** "1.500.000" / "1 500" / "1500" -> "1500000" / "1500" / "1500", checking that groups are of three. */
function wholeDigits(whole: string): string {
  const separators = new Set(whole.replace(/\d/g, '').replace(GROUP_SPACE, ' '));
  if (separators.size === 0) return whole;
  if (separators.size > 1) throw new MoneyInputError('uses two different thousands separators');
  const groups = whole.split(/[., \u00a0\u202f]/);
  const [first, ...rest] = groups as [string, ...string[]];
  if (!/^\d{1,3}$/.test(first) || rest.some((g) => !/^\d{3}$/.test(g))) {
    throw new MoneyInputError('has thousands separators in the wrong places');
  }
  return groups.join('');
}

const count = (text: string, char: string): number => text.split(char).length - 1;
