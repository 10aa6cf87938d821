/**
 * What a statement may hold, whatever its format (docs/statements.md, Limits). A file past one of these is refused
 * with a StatementError naming the place, before anything reaches the database: an amount PostgreSQL's bigint cannot
 * hold, a NUL it cannot store in text, XML nested deep enough to exhaust a parser, a reference longer than its column.
 */
import { StatementError, type StatementLine } from './statement.js';

/**
 * Digits of minor units an amount or balance may have: at most 999,999,999,999,999 kuruş (just under 10 trillion
 * lira), far above any real account and far inside bigint (19 digits), so sums of a file's lines stay exact too. The
 * connector's JSON schema (`recordBankLines`, packages/contracts) has the same bound.
 */
export const MAX_AMOUNT_DIGITS = 15;

/** Elements nested in a camt.053: a real one is about 12 deep (Document/.../TxDtls/RltdPties/Dbtr/Pty/PstlAdr/AdrLine). */
export const MAX_XML_DEPTH = 64;

/** Calendar years a statement's dates may name: what MT940's two-digit years can say, and all any real statement does. */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2099;

/** Lengths of the references Kasa keeps (the columns they are stored in); a longer one is refused, never cut. */
export const MAX_LENGTH = { statementId: 140, bankTxId: 128, endToEndId: 128, returnReason: 8, purpose: 35, counterpartyIban: 34 } as const;

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL: never text in a statement, and NUL
 * cannot be stored in PostgreSQL at all. Refused, not stripped: a file holding them is not what the bank sent.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this looks for
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Half of a surrogate pair alone: no character, and not encodable as UTF-8 (an XML reference such as `&#xD800;`). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `U+001B`: how a character is named in a message (control characters print as nothing). */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `text` is no statement text (a control character, an unpaired surrogate), or null when it is. */
export function textProblem(text: string): string | null {
  const control = CONTROL.exec(text);
  if (control) return `holds control character ${codePoint(control[0])}; only tab, line feed and carriage return are allowed`;
  if (LONE_SURROGATE.test(text)) return 'holds an unpaired surrogate (it is not valid Unicode)';
  return null;
}

/**
 * The first control character of a whole body, as a StatementError at its line: checked before any parser runs, so
 * every format and every field is covered by one rule.
 */
export function checkBodyText(body: string): void {
  const control = CONTROL.exec(body);
  if (!control) return;
  const line = lineAt(body, control.index);
  throw new StatementError(
    `holds control character ${codePoint(control[0])} (column ${control.index - body.lastIndexOf('\n', control.index - 1)}); ` +
      'a statement is text, where only tab, line feed and carriage return are allowed',
    `line ${line}`,
  );
}

/** The 1-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** A statement id Kasa can keep. */
export function checkStatementId(id: string, where: string): string {
  if (id.length > MAX_LENGTH.statementId) {
    throw new StatementError(`statement id is ${id.length} characters; at most ${MAX_LENGTH.statementId} are kept`, where);
  }
  return id;
}

/**
 * A line as every parser finishes it: its references within the lengths Kasa keeps and every text free of control
 * characters (a backstop: the body and the XML tree are checked before, with a finer place). Texts only shown to
 * people (description, counterparty name) may be longer: they are cut when stored.
 */
export function checkLine(line: StatementLine, where: string): StatementLine {
  const references: Array<[keyof typeof MAX_LENGTH, string | null]> = [
    ['bankTxId', line.bankTxId],
    ['endToEndId', line.endToEndId],
    ['returnReason', line.returnReason],
    ['purpose', line.purpose],
    ['counterpartyIban', line.counterpartyIban === null ? null : line.counterpartyIban.replace(/\s+/g, '')],
  ];
  for (const [name, value] of references) {
    if (value !== null && value.length > MAX_LENGTH[name]) {
      throw new StatementError(
        `${name} ${JSON.stringify(value.slice(0, 40))}... is ${value.length} characters; at most ${MAX_LENGTH[name]}`,
        where,
      );
    }
  }
  for (const [name, value] of Object.entries(line)) {
    const problem = typeof value === 'string' ? textProblem(value) : null;
    if (problem) throw new StatementError(`${name} ${problem}`, where);
  }
  return line;
}
