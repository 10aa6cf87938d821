/** Reading the small camt.053 building blocks (amounts, indicators, required texts) with their element paths. */
import { CURRENCY_PATTERN, currencyDecimals, parseAmount } from './amount.js';
import { StatementError } from './statement.js';
import { at, ownText, textAt, type XmlElement } from './xml-tree.js';

/** `<Amt Ccy="TRY">1500.00</Amt>` under `element`, exactly, in minor units. */
export function readAmount(element: XmlElement, where: string, path = 'Amt'): { minor: bigint; currency: string } {
  const amt = at(element, path);
  if (amt === undefined) throw new StatementError('is missing', `${where}/${path}`);
  const currency = currencyOf(element, where, path);
  const text = withoutSurplusZeros(ownText(amt) ?? '', currencyDecimals(currency));
  return { minor: parseAmount(text, currency, `${where}/${path}`, { decimalMark: '.' }), currency };
}

/**
 * `5442.09000` as `5442.09`: zeros past the currency's decimals change nothing, and some banks' exports write five
 * decimals for every currency. A digit that is not zero there (`1500.001`) stays, and is refused.
 */
function withoutSurplusZeros(text: string, decimals: number): string {
  const point = text.indexOf('.');
  if (point === -1) return text;
  let end = text.length;
  while (end > point + 1 + decimals && text[end - 1] === '0') end--;
  return text.slice(0, end);
}

export function currencyOf(element: XmlElement, where: string, path = 'Amt'): string {
  const currency = at(element, path)?.['@Ccy'];
  if (typeof currency !== 'string' || !CURRENCY_PATTERN.test(currency)) {
    throw new StatementError(`has no ISO 4217 currency in its Ccy attribute`, `${where}/${path}`);
  }
  return currency;
}

/** CdtDbtInd: CRDT is money in, DBIT money out, for the account holder. */
export function direction(element: XmlElement, where: string): 'credit' | 'debit' {
  const indicator = textAt(element, 'CdtDbtInd');
  if (indicator === 'CRDT') return 'credit';
  if (indicator === 'DBIT') return 'debit';
  throw new StatementError(`is ${JSON.stringify(indicator ?? '')}, not CRDT or DBIT`, `${where}/CdtDbtInd`);
}

/**
 * What ISO 20022 writes where a reference or text was not given (`<EndToEndId>NOTPROVIDED</EndToEndId>`,
 * `<Ustrd>NOTPROVIDED</Ustrd>`): never a reference, never remittance text.
 */
export const NOT_PROVIDED = 'NOTPROVIDED';

/** The first of `paths` under `element` that holds a text other than {@link NOT_PROVIDED}. */
export function firstGiven(element: XmlElement | undefined, ...paths: string[]): string | undefined {
  for (const path of paths) {
    const text = textAt(element, path);
    if (text !== undefined && text !== NOT_PROVIDED) return text;
  }
  return undefined;
}

export function required(element: XmlElement, path: string, where: string): string {
  const text = textAt(element, path);
  if (text === undefined) throw new StatementError('is missing or empty', `${where}/${path}`);
  return text;
}
