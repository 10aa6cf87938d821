import { parseAmount } from './amount.js';
import { calendarDay, calendarDayOrMonthEnd } from './dates.js';
import { findIban } from './iban.js';
import { checkLine } from './limits.js';
import { readField86 } from './mt940-field86.js';
import { StatementError, type StatementLine } from './statement.js';

/**
 * `:61:2503140314C1500,00NTRFNONREF//B25073HAV00017`: value date, entry date (or four blanks), mark, funds code, amount,
 * type (`NTRF`, or padded `NOV `, `NET ` as ING and Triodos write it, a blank before it at some banks), references.
 */
const ENTRY =
  /^(\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2})| {4})?(RC|RD|C|D)([A-Z])?([0-9,.+-]*) ?([SNF][A-Z0-9]{2}[A-Z0-9 ])(.*?)(?:\/\/(.*))?$/;
/**
 * Old Rabobank files pad the customer reference with blanks and write the counterparty's name after it on the line
 * (`0121470966      W.P. Jansen`) and no `//` bank reference; SNS writes an IBAN longer than SWIFT's 16 characters
 * there, so the reference ends at a run of blanks, not at a width.
 */
const AFTER_REFERENCE = /\s{2,}/;
/** MT940's own word for a line without a reference. */
const NO_REFERENCE = 'NONREF';

/**
 * One `:61:` line with its `:86:` details (all of them, when a bank repeats `:86:` after one `:61:`). `lines` are the
 * `:61:` field's lines: the entry, then supplementary details (Rabobank writes the counterparty's IBAN there).
 */
export function readEntry(lines: string[], line: number, details: string[] | undefined, currency: string): StatementLine {
  const where = `line ${line}`;
  const [text = '', next = ''] = lines;
  // Some banks (Sparkassen) wrap the amount onto the next line: `1007220722CR` then `30,00N062NONREF`.
  const wrapped = ENTRY.exec(text.trim()) ? null : ENTRY.exec(`${text.trim()}${next.trim()}`);
  const match = wrapped ?? ENTRY.exec(text.trim());
  if (!match) {
    throw new StatementError(`:61: ${JSON.stringify(text)} is not value date, entry date, C/D/RC/RD, amount, type and reference`, where);
  }
  const [, yy = '', mm = '', dd = '', entryMonth, entryDay, mark = '', , amountText = '', , references = '', bankRef = ''] = match;
  const valueDate = calendarDayOrMonthEnd(2000 + Number(yy), Number(mm), Number(dd), where, text.slice(0, 6));
  const bookedAt = entryMonth && entryDay ? entryDate(valueDate, Number(entryMonth), Number(entryDay), where) : valueDate;
  // Before a `//` bank reference, everything is the customer reference (`MSGID CTSc-01  B//0724710324666001`).
  const [customerRef = '', ...afterReference] = match[0].includes('//') ? [references.trim()] : references.trim().split(AFTER_REFERENCE);
  const reference = bankRef.trim() || (customerRef !== NO_REFERENCE ? customerRef : '');
  const supplementary = [...afterReference, ...lines.slice(wrapped ? 2 : 1)].join(' ');
  // Old Rabobank files name the counterparty on the :61: line itself, after the padded reference.
  const nameOnLine = afterReference.join(' ').trim();
  const read = details
    ? readField86(details)
    : { description: '', counterpartyName: null, counterpartyIban: null, endToEndId: null, returnReason: null, purpose: null };
  return checkLine(
    {
      // A line with neither a bank reference nor a customer one is NONREF, as the bank wrote it: its amount, day and
      // occurrence tell it apart (the ledger's line key), while a name from its place in the statement would make the
      // same line new in a statement of another number.
      bankTxId: reference || NO_REFERENCE,
      // RC reverses a credit, so it takes money out; RD reverses a debit and puts it back.
      direction: mark === 'C' || mark === 'RD' ? 'credit' : 'debit',
      amount: parseAmount(amountText, currency, where, { decimalMark: 'either' }),
      currency,
      bookedAt,
      // MT940 dates have no time of day.
      timeKnown: false,
      description: read.description,
      counterpartyName: read.counterpartyName ?? (nameOnLine || null),
      counterpartyIban: read.counterpartyIban ?? findIban(supplementary),
      endToEndId: read.endToEndId,
      returnReason: read.returnReason,
      purpose: read.purpose,
      reversal: mark.startsWith('R'),
      charges: null,
    },
    where,
  );
}

/** The entry date has no year: it is the value date's, or the neighbouring one across a new year (3112 vs 250101). */
function entryDate(valueDate: Date, month: number, day: number, where: string): Date {
  const valueMonth = valueDate.getUTCMonth() + 1;
  const year = valueDate.getUTCFullYear() + (valueMonth === 12 && month === 1 ? 1 : valueMonth === 1 && month === 12 ? -1 : 0);
  return calendarDay(year, month, day, where, `${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`);
}
