/** Reading the small camt.053 building blocks (amounts, indicators, required texts) with their element paths. */
import { CURRENCY_PATTERN, parseAmount } from './amount.js';
import { StatementError } from './statement.js';
import { at, ownText, textAt, type XmlElement } from './xml-tree.js';

/** `<Amt Ccy="TRY">1500.00</Amt>` under `element`, exactly, in minor units. */
export function readAmount(element: XmlElement, where: string, path = 'Amt'): { minor: bigint; currency: string } {
  const amt = at(element, path);
  if (amt === undefined) throw new StatementError('is missing', `${where}/${path}`);
  const currency = currencyOf(element, where, path);
  return { minor: parseAmount(ownText(amt) ?? '', currency, `${where}/${path}`, { decimalMark: '.' }), currency };
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

export function required(element: XmlElement, path: string, where: string): string {
  const text = textAt(element, path);
  if (text === undefined) throw new StatementError('is missing or empty', `${where}/${path}`);
  return text;
}
