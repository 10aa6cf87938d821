import { readAccount, type StatementAccount } from './account-id.js';
import { CURRENCY_PATTERN, parseAmount } from './amount.js';
import { calendarDay } from './dates.js';
import { checkLine, checkStatementId } from './limits.js';
import { readField86 } from './mt940-field86.js';
import { StatementError, type Statement, type StatementLine } from './statement.js';

/** One `:tag:` field with its continuation lines; `line` is where it starts in the body (1-based). */
interface Field {
  tag: string;
  lines: string[];
  line: number;
}

interface Draft {
  reference: string;
  start: number;
  number?: string;
  account?: StatementAccount;
  currency?: string;
  opening?: Balance;
  closing?: Balance;
  lines: { field: Field; details?: Field }[];
}

interface Balance {
  amount: bigint;
  date: Date;
  currency: string;
}

const TAG = /^:(\d{2}[A-Z]?|NS):/;
/** `:60F:C250313TRY125000,00`: mark, YYMMDD, currency, amount. */
const BALANCE = /^([CD])(\d{2})(\d{2})(\d{2})([A-Z]{3})([0-9,.+-]*)$/;
/** `:61:2503140314C1500,00NTRFNONREF//B25073HAV00017`: value date, entry date, mark, funds code, amount, type, references. */
const ENTRY = /^(\d{2})(\d{2})(\d{2})(?:(\d{2})(\d{2}))?(RC|RD|C|D)([A-Z])?([0-9,.+-]*)([SNF][A-Z0-9]{3})(.*?)(?:\/\/(.*))?$/;
/** Tags that carry nothing this package reports (:21: related reference, :64:/:65: available balances, :NS: ...). */
const IGNORED = new Set(['21', '13D', '34F', '64', '65', '90C', '90D', 'NS']);

/**
 * SWIFT MT940: every statement in the body (`:20:` to `:62F:`/`:62M:`), bare or wrapped in `{1:..}{4:..-}` blocks,
 * separated by `-` lines or not at all. Amounts are read exactly; no balance is checked here (see balanceProblem).
 */
export function parseMt940(body: string): Statement[] {
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  let previousTag: string | undefined;
  for (const field of fields(body)) {
    const where = `line ${field.line}`;
    const value = field.lines[0] ?? '';
    const previous = previousTag;
    previousTag = field.tag;
    if (field.tag === '20') {
      if (current && !current.closing) throw unclosed(current);
      current = { reference: value.trim(), start: field.line, lines: [] };
      drafts.push(current);
      continue;
    }
    if (!current) throw new StatementError(`:${field.tag}: comes before any :20: (the statement's reference)`, where);
    if (field.tag === '25') current.account = readAccount(value, where);
    else if (field.tag === '28C' || field.tag === '28') current.number = value.trim();
    else if (field.tag === '60F' || field.tag === '60M') current.opening = balance(value, where);
    else if (field.tag === '62F' || field.tag === '62M') {
      const closing = balance(value, where);
      if (current.opening && closing.currency !== current.opening.currency) {
        throw new StatementError(`closing balance is in ${closing.currency}, the opening in ${current.opening.currency}`, where);
      }
      current.closing = closing;
    } else if (field.tag === '61') {
      if (current.closing) throw new StatementError(':61: comes after the closing balance :62F:', where);
      current.lines.push({ field });
    } else if (field.tag === '86') {
      // Right after a :61: it describes that line; elsewhere it is information for the account holder, not read.
      const line = current.lines.at(-1);
      if (previous === '61' && line) line.details = field;
    } else if (!IGNORED.has(field.tag)) {
      throw new StatementError(`:${field.tag}: is not an MT940 field`, where);
    }
  }
  if (current && !current.closing) throw unclosed(current);
  if (drafts.length === 0) throw new StatementError('has no MT940 statement (no :20: field)', 'line 1');
  return drafts.map(finish);
}

/** Splits the body into fields, dropping `-` separators, blank lines and the `{1:..}{2:..}{4:` / `-}` block wrapping. */
function* fields(body: string): Generator<Field> {
  let current: Field | undefined;
  const rawLines = body.split(/\r\n|\n|\r/);
  for (let index = 0; index < rawLines.length; index++) {
    let text = rawLines[index] ?? '';
    if (text.startsWith('{')) text = /\{4:(.*)$/.exec(text)?.[1] ?? '';
    if (text.trim() === '' || text.trim() === '-' || text.startsWith('-}')) continue;
    const tag = TAG.exec(text);
    if (tag) {
      if (current) yield current;
      current = { tag: tag[1] ?? '', lines: [text.slice(tag[0].length)], line: index + 1 };
    } else if (current) {
      current.lines.push(text);
    } else {
      throw new StatementError(`text ${JSON.stringify(text.slice(0, 20))} is outside any :tag: field`, `line ${index + 1}`);
    }
  }
  if (current) yield current;
}

function finish(draft: Draft): Statement {
  const { account, number, opening, closing } = draft;
  const lacking = (what: string) => new StatementError(`statement ${draft.reference} has no ${what}`, `line ${draft.start}`);
  if (!account) throw lacking(':25: (account)');
  if (!number) throw lacking(':28C: (statement number)');
  if (!opening) throw lacking(':60F: (opening balance)');
  if (!closing) throw lacking(':62F: (closing balance)');
  const { currency } = opening;
  const id = checkStatementId(`${draft.reference}/${number}`, `line ${draft.start}`);
  return {
    id,
    account,
    currency,
    openingBalance: opening.amount,
    closingBalance: closing.amount,
    from: opening.date,
    to: closing.date,
    timeKnown: false,
    lines: draft.lines.map(({ field, details }) => entry(field, details, currency)),
  };
}

/** MT940's own word for a line without a reference. */
const NO_REFERENCE = 'NONREF';

function entry(field: Field, details: Field | undefined, currency: string): StatementLine {
  const where = `line ${field.line}`;
  const text = field.lines[0] ?? '';
  const match = ENTRY.exec(text.trim());
  if (!match) {
    throw new StatementError(`:61: ${JSON.stringify(text)} is not value date, entry date, C/D/RC/RD, amount, type and reference`, where);
  }
  const [, yy = '', mm = '', dd = '', entryMonth, entryDay, mark = '', , amountText = '', , customerRef = '', bankRef = ''] = match;
  const valueDate = calendarDay(2000 + Number(yy), Number(mm), Number(dd), where, text.slice(0, 6));
  const bookedAt = entryMonth && entryDay ? entryDate(valueDate, Number(entryMonth), Number(entryDay), where) : valueDate;
  const reference = bankRef.trim() || (customerRef.trim() !== 'NONREF' ? customerRef.trim() : '');
  const read = details ? readField86(details.lines) : { description: '', counterpartyName: null, counterpartyIban: null };
  return checkLine(
    {
      // A line with neither a bank reference nor a customer one is NONREF, as the bank wrote it: its amount, day and
      // occurrence tell it apart (the ledger's line key), while a name from its place in the statement would make the
      // same line new in a statement of another number.
      bankTxId: reference || NO_REFERENCE,
      // RC reverses a credit, so it takes money out; RD reverses a debit and puts it back.
      direction: mark === 'C' || mark === 'RD' ? 'credit' : 'debit',
      amount: parseAmount(amountText, currency, where, { decimalMark: ',' }),
      currency,
      bookedAt,
      timeKnown: false,
      description: read.description,
      counterpartyName: read.counterpartyName,
      counterpartyIban: read.counterpartyIban,
      endToEndId: null,
      returnReason: null,
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

function balance(value: string, where: string): Balance {
  const match = BALANCE.exec(value.trim());
  if (!match || !CURRENCY_PATTERN.test(match[5] ?? '')) {
    throw new StatementError(`balance ${JSON.stringify(value)} is not C/D, YYMMDD, currency and amount`, where);
  }
  const [, mark, yy = '', mm = '', dd = '', currency = '', amountText = ''] = match;
  const amount = parseAmount(amountText, currency, where, { decimalMark: ',' });
  return {
    amount: mark === 'D' ? -amount : amount,
    date: calendarDay(2000 + Number(yy), Number(mm), Number(dd), where, value.slice(1, 7)),
    currency,
  };
}

function unclosed(draft: Draft): StatementError {
  return new StatementError(
    `statement ${draft.reference} ends without a closing balance (:62F: or :62M:); is the file cut short?`,
    `line ${draft.start}`,
  );
}
