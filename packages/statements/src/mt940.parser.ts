import { readAccount, type StatementAccount } from './account-id.js';
import { CURRENCY_PATTERN, parseAmount } from './amount.js';
import { calendarDayOrMonthEnd } from './dates.js';
import { checkStatementId } from './limits.js';
import { readEntry } from './mt940-entry.js';
import { isEnvelopeLine, isMessageEnd, unwrapLine } from './mt940-envelope.js';
import { StatementError, type RefusedStatement, type Statement, type StatementsRead } from './statement.js';

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
  opening?: Balance;
  closing?: Balance;
  /** It holds MT942's fields (:34F:, :13D:, :90C:/:90D:): an interim report, which has no balances to check. */
  interim?: boolean;
  lines: { field: Field; details?: string[] }[];
}

interface Balance {
  amount: bigint;
  date: Date;
  currency: string;
}

const TAG = /^:(\d{2}[A-Z]?|NS):/;
/** `:60F:C250313TRY125000,00`: mark, YYMMDD, currency, amount. */
const BALANCE = /^([CD])(\d{2})(\d{2})(\d{2})([A-Z]{3})([0-9,.+-]*)$/;
/** Tags that carry nothing this package reports (:21: related reference, :64:/:65: available balances, :NS: ...). */
const IGNORED = new Set(['21', '13D', '34F', '64', '65', '90C', '90D', 'NS']);
const INTERIM = new Set(['13D', '34F', '90C', '90D']);
/** Every tag an MT940 statement may hold; inside a `:86:`, a line starting like another tag (`:12:`) is its text. */
const KNOWN = new Set(['20', '25', '28', '28C', '60F', '60M', '61', '62F', '62M', '86', ...IGNORED]);

/**
 * SWIFT MT940: every statement in the body (`:20:` to `:62F:`/`:62M:`), bare or in the wrapping banks send (SWIFT
 * blocks, headers, frame characters: mt940-envelope.ts), separated by `-` lines or not at all. Amounts are read exactly;
 * no balance is checked here (see balanceProblem).
 *
 * A statement that lacks a part (a closing balance, as when a file is cut short or a bank sends an unfinished
 * statement last) is set aside in `refused`, naming it and its line, and the file's other statements are read. A wrong
 * value (an amount, a date, an unknown tag) refuses the whole file, as does a file in which no statement is complete.
 */
export function parseMt940(body: string): StatementsRead {
  const drafts: Draft[] = [];
  let current: Draft | undefined;
  // Whether a :86: now describes the last :61: line: right after it, after a :86: of it, or after a bank's :NS: there.
  let describesLine = false;
  for (const field of fields(body)) {
    const where = `line ${field.line}`;
    const value = field.lines[0] ?? '';
    const describes: boolean = describesLine;
    describesLine = field.tag === '61' || (describes && (field.tag === '86' || field.tag === 'NS'));
    if (field.tag === '20') {
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
      // After a :61: it describes that line, and so does each :86: repeated after it (older Rabobank files write one
      // per text line); elsewhere it is information for the account holder, not read.
      const line = current.lines.at(-1);
      if (line && describes) line.details = [...(line.details ?? []), ...field.lines];
    } else if (IGNORED.has(field.tag)) {
      if (INTERIM.has(field.tag)) current.interim = true;
    } else {
      throw new StatementError(`:${field.tag}: is not an MT940 field`, where);
    }
  }
  if (drafts.length === 0) throw new StatementError('has no MT940 statement (no :20: field)', 'line 1');
  const statements: Statement[] = [];
  const refused: RefusedStatement[] = [];
  for (const draft of drafts) {
    const lacking = incomplete(draft);
    if (lacking) refused.push(lacking);
    else statements.push(finish(draft));
  }
  const [first] = refused;
  if (statements.length === 0 && first) {
    const others = refused.length > 1 ? ` (and ${refused.length - 1} more statements cannot be read)` : '';
    throw new StatementError(first.reason + others, first.location);
  }
  return { statements, refused };
}

/**
 * Splits the body into fields. Skipped: blank lines, the envelope (SWIFT blocks and frame, bank headers) and the `-`
 * lines ending a message; but a `-` inside a `:86:` followed by more of its text is text (ING writes mandate
 * references `MND` / `-` / `EV01` on three lines). Any other text outside a field is refused, naming its line.
 */
function* fields(body: string): Generator<Field> {
  const texts = body.split(/\r\n|\n|\r/).map(unwrapLine);
  let current: Field | undefined;
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index];
    if (text === undefined || text === null) {
      // A block header or trailer: one message ends and the next begins.
      if (current) yield current;
      current = undefined;
      continue;
    }
    if (text.trim() === '') continue;
    if (isMessageEnd(text) && !(current?.tag === '86' && isTextLine(nextText(texts, index)))) {
      if (current) yield current;
      current = undefined;
      continue;
    }
    const tag = TAG.exec(text);
    if (tag && (current?.tag !== '86' || KNOWN.has(tag[1] ?? ''))) {
      if (current) yield current;
      current = { tag: tag[1] ?? '', lines: [text.slice(tag[0].length)], line: index + 1 };
    } else if (current) {
      current.lines.push(text);
    } else if (!isEnvelopeLine(text)) {
      throw new StatementError(`text ${JSON.stringify(text.slice(0, 20))} is outside any :tag: field`, `line ${index + 1}`);
    }
  }
  if (current) yield current;
}

/** The next non-blank line's text after `index` (null for a block line, undefined at the end). */
function nextText(texts: Array<string | null>, index: number): string | null | undefined {
  for (let next = index + 1; next < texts.length; next++) {
    const text = texts[next];
    if (text === null || text?.trim()) return text;
  }
  return undefined;
}

/** A line that can only continue a field's text: no tag, block, separator or envelope line. */
function isTextLine(text: string | null | undefined): boolean {
  if (text === null || text === undefined) return false;
  const tag = TAG.exec(text);
  return !(tag && KNOWN.has(tag[1] ?? '')) && !isMessageEnd(text) && !isEnvelopeLine(text);
}

/** Why a statement cannot be read as a whole (a part missing), or null when it has every part. */
function incomplete(draft: Draft): RefusedStatement | null {
  const statementId = checkStatementId(draft.number ? `${draft.reference}/${draft.number}` : draft.reference, `line ${draft.start}`);
  const named = `statement ${statementId}`;
  const refuse = (reason: string): RefusedStatement => ({ statementId, location: `line ${draft.start}`, reason });
  if (draft.interim && !draft.opening && !draft.closing) {
    return refuse(`${named} is an MT942 interim report (:34F:, :13D:, no :60F: or :62F: balance), not an MT940 statement`);
  }
  if (!draft.closing) return refuse(`${named} ends without a closing balance (:62F: or :62M:); is the file cut short?`);
  if (!draft.account) return refuse(`${named} has no :25: (account)`);
  if (!draft.number) return refuse(`${named} has no :28C: (statement number)`);
  if (!draft.opening) return refuse(`${named} has no :60F: (opening balance)`);
  return null;
}

function finish(draft: Draft): Statement {
  const { account, number = '', opening, closing } = draft;
  // incomplete() has seen every part; the checks only tell the compiler.
  if (!account || !opening || !closing) throw new StatementError(`statement ${draft.reference} is incomplete`, `line ${draft.start}`);
  const { currency } = opening;
  return {
    id: checkStatementId(`${draft.reference}/${number}`, `line ${draft.start}`),
    account,
    currency,
    openingBalance: opening.amount,
    closingBalance: closing.amount,
    from: opening.date,
    to: closing.date,
    timeKnown: false,
    lines: draft.lines.map(({ field, details }) => readEntry(field.lines, field.line, details, currency)),
  };
}

function balance(value: string, where: string): Balance {
  const match = BALANCE.exec(value.trim());
  if (!match || !CURRENCY_PATTERN.test(match[5] ?? '')) {
    throw new StatementError(`balance ${JSON.stringify(value)} is not C/D, YYMMDD, currency and amount`, where);
  }
  const [, mark, yy = '', mm = '', dd = '', currency = '', amountText = ''] = match;
  const amount = parseAmount(amountText, currency, where, { decimalMark: 'either' });
  return {
    amount: mark === 'D' ? -amount : amount,
    date: calendarDayOrMonthEnd(2000 + Number(yy), Number(mm), Number(dd), where, value.slice(1, 7)),
    currency,
  };
}
