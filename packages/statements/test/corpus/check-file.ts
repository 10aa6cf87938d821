import {
  balanceProblem,
  decodeStatementBody,
  parseStatements,
  StatementError,
  type Statement,
  type StatementLine,
} from '../../src/index.js';
import { formatAmount } from '../../src/amount.js';
import type { CorpusFile } from './corpus-files.js';
import type { ReferenceLine } from './reference.js';

/** The fields compared with a reference parse. Amounts and balances must agree; the others are counted and listed. */
export const FIELDS = ['amount', 'balance', 'date', 'reference', 'counterpartyIban', 'counterpartyName', 'description'] as const;
export type Field = (typeof FIELDS)[number];
export const MUST_AGREE: ReadonlySet<Field> = new Set(['amount', 'balance']);

export interface ExpectedRefusal {
  file: string;
  /** A substring of the StatementError's message (`location: reason`). */
  reason: string;
  /** Why the file is refused: the documented rule it breaks. */
  why: string;
}

export interface FileResult {
  source: string;
  name: string;
  outcome: 'read' | 'refused' | 'crashed';
  format?: string;
  statements: number;
  lines: number;
  /** The StatementError's message, or what else was thrown. */
  error?: string;
  hasReference: boolean;
  referenceProblem?: string;
  compared: Record<Field, number>;
  agreeing: Record<Field, number>;
  /** Field differences, `line 3 date: ours 2010-07-22, reference 2010-07-23`. */
  differences: { field: Field; detail: string }[];
  /** Statements that do not add up (opening + lines != closing). */
  inconsistent: string[];
  /** What makes the corpus test fail: an amount or balance differing, an unlisted refusal, a listed file read, a crash. */
  failures: string[];
}

const zero = (): Record<Field, number> => Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;

/** `-25.030` and `-25.03`, `0.0` and `-0`: the same number written two ways. */
function canonicalDecimal(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return text.trim();
  const whole = (match[2] ?? '').replace(/^0+/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const digits = fraction ? `${whole}.${fraction}` : whole;
  return digits === '0' || match[1] !== '-' ? digits : `-${digits}`;
}

const signed = (line: StatementLine): bigint => (line.direction === 'credit' ? line.amount : -line.amount);

/** The calendar day of a booking: the date itself for a date-only line (midnight UTC), else the day in Istanbul. */
function dayOf(date: Date): string {
  const utcMidnight = date.getUTCHours() === 0 && date.getUTCMinutes() === 0 && date.getUTCSeconds() === 0;
  return new Date(date.getTime() + (utcMidnight ? 0 : 3 * 3600_000)).toISOString().slice(0, 10);
}

const words = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '');
const iban = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, '').toUpperCase();

/** Decodes and parses one file as an upload with no content type would be, and compares it with its reference. */
export function checkFile(file: CorpusFile, refusals: readonly ExpectedRefusal[]): FileResult {
  const result: FileResult = {
    source: file.source,
    name: file.name,
    outcome: 'read',
    statements: 0,
    lines: 0,
    hasReference: file.reference !== null,
    ...(file.referenceProblem ? { referenceProblem: file.referenceProblem } : {}),
    compared: zero(),
    agreeing: zero(),
    differences: [],
    inconsistent: [],
    failures: [],
  };
  const listed = refusals.find((r) => r.file === file.name);
  let statements: Statement[];
  try {
    const parsed = parseStatements(decodeStatementBody(file.bytes, ''), '');
    result.format = parsed.format;
    statements = parsed.statements;
  } catch (error) {
    if (!(error instanceof StatementError)) {
      result.outcome = 'crashed';
      result.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      result.failures.push(`threw ${result.error}, not a StatementError`);
      return result;
    }
    result.outcome = 'refused';
    result.error = error.message;
    if (!listed) result.failures.push(`refused and not in expected-refusals.json: ${error.message}`);
    else if (!error.message.includes(listed.reason)) {
      result.failures.push(
        `refused for another reason than expected-refusals.json says (${JSON.stringify(listed.reason)}): ${error.message}`,
      );
    }
    return result;
  }
  if (listed) result.failures.push(`read now, but expected-refusals.json lists it (${JSON.stringify(listed.reason)}): remove the entry`);
  result.statements = statements.length;
  const lines = statements.flatMap((s) => s.lines.map((line) => ({ line, currency: s.currency })));
  result.lines = lines.length;
  for (const statement of statements) {
    const problem = balanceProblem(statement);
    if (problem) result.inconsistent.push(problem);
  }
  if (file.reference) compare(result, statements, lines, file.reference);
  return result;
}

function compare(
  result: FileResult,
  statements: Statement[],
  allLines: { line: StatementLine; currency: string }[],
  reference: NonNullable<CorpusFile['reference']>,
): void {
  let lines = allLines;
  const tally = (field: Field, agree: boolean, detail: string): void => {
    result.compared[field]++;
    if (agree) result.agreeing[field]++;
    else {
      result.differences.push({ field, detail });
      if (MUST_AGREE.has(field)) result.failures.push(`${field} differs: ${detail}`);
    }
  };

  const shown = (statement: Statement, which: 'opening' | 'closing'): string =>
    formatAmount(which === 'opening' ? statement.openingBalance : statement.closingBalance, statement.currency);
  if (reference.balancesOf === 'any') {
    for (const expected of reference.balances) {
      for (const which of ['opening', 'closing'] as const) {
        const theirs = expected[which];
        if (theirs === null) continue;
        const found = statements.some((s) => canonicalDecimal(shown(s, which)) === canonicalDecimal(theirs));
        tally(
          'balance',
          found,
          `${which} ${theirs} of the reference is no statement's ${which} balance (ours ${statements.map((s) => shown(s, which)).join(', ')})`,
        );
      }
    }
  } else if (reference.balances.length > 0) {
    // A reference without statements (Odoo drops one without entries) has no balances to compare.
    const targets = reference.balancesOf === 'one' ? statements.filter((s) => s.id === reference.statementId) : statements;
    if (reference.balances.length !== targets.length) {
      tally('balance', false, `${statements.length} statements, the reference has ${reference.balances.length}`);
    }
    reference.balances.forEach((expected, index) => {
      const statement = targets[index];
      if (!statement) return;
      for (const which of ['opening', 'closing'] as const) {
        const theirs = expected[which];
        if (theirs === null) continue;
        const ours = shown(statement, which);
        tally(
          'balance',
          canonicalDecimal(ours) === canonicalDecimal(theirs),
          `statement ${statement.id} ${which}: ours ${ours}, reference ${theirs}`,
        );
      }
    });
  }
  if (reference.balancesOf === 'one') {
    lines = statements
      .filter((s) => s.id === reference.statementId)
      .flatMap((s) => s.lines.map((line) => ({ line, currency: s.currency })));
  }

  if (reference.lines.length !== lines.length) {
    tally('amount', false, `${lines.length} lines, the reference has ${reference.lines.length}`);
  }
  reference.lines.forEach((expected: ReferenceLine, index) => {
    const ours = lines[index];
    if (!ours) return;
    const { line, currency } = ours;
    const at = `line ${index + 1} (${line.bankTxId})`;
    const amount = formatAmount(signed(line), currency);
    tally('amount', canonicalDecimal(amount) === canonicalDecimal(expected.amount), `${at}: ours ${amount}, reference ${expected.amount}`);
    if (expected.date)
      tally('date', dayOf(line.bookedAt) === expected.date, `${at}: ours ${dayOf(line.bookedAt)}, reference ${expected.date}`);
    if (expected.references?.length) {
      const agree =
        expected.references.includes(line.bankTxId) || (line.endToEndId !== null && expected.references.includes(line.endToEndId));
      tally(
        'reference',
        agree,
        `${at}: ours ${line.bankTxId}${line.endToEndId ? ` / ${line.endToEndId}` : ''}, reference ${expected.references.join(' / ')}`,
      );
    }
    if (expected.counterpartyIban !== undefined) {
      tally(
        'counterpartyIban',
        iban(line.counterpartyIban) === iban(expected.counterpartyIban),
        `${at}: ours ${line.counterpartyIban ?? 'null'}, reference ${expected.counterpartyIban ?? 'null'}`,
      );
    }
    if (expected.counterpartyName !== undefined) {
      tally(
        'counterpartyName',
        // Names are cut into 27-character subfields too (?32, ?33) and joined with or without a space.
        words(line.counterpartyName) === words(expected.counterpartyName),
        `${at}: ours ${JSON.stringify(line.counterpartyName)}, reference ${JSON.stringify(expected.counterpartyName)}`,
      );
    }
    if (expected.description !== undefined) {
      // Banks cut free text into 65- or 27-character lines and parsers join them differently: whitespace is no difference.
      const agree = line.description.replace(/\s+/g, '') === (expected.description ?? '').replace(/\s+/g, '');
      tally('description', agree, `${at}: ours ${JSON.stringify(line.description)}, reference ${JSON.stringify(expected.description)}`);
    }
  });
}
