import { CsvError, parse } from 'csv-parse/sync';
import { CURRENCY_PATTERN, parseAmount } from './amount.js';
import { hasTimeOfDay, parseIsoDate } from './dates.js';
import { ibanAccount } from './account-id.js';
import { normaliseIban } from './iban.js';
import { checkLine, checkStatementId } from './limits.js';
import { StatementError, type Statement, type StatementLine } from './statement.js';

/** Every one of these must be in the header (values may be empty where docs/statements.md says so). */
const REQUIRED = [
  'account_iban',
  'statement_id',
  'booked_at',
  'direction',
  'amount',
  'currency',
  'bank_tx_id',
  'counterparty_name',
  'counterparty_iban',
  'description',
  'end_to_end_id',
] as const;
const OPTIONAL = ['return_reason', 'purpose', 'reversal', 'charges'] as const;
type Column = (typeof REQUIRED)[number] | (typeof OPTIONAL)[number];

interface Draft {
  statement: Statement;
  start: number;
  opening: boolean;
  closing: boolean;
}

/**
 * Kasa's own CSV layout (docs/statements.md): one row per movement, plus an `opening` and a `closing` row per
 * statement carrying the balances, so a CSV statement is checked like the bank formats.
 */
export function parseCsv(body: string): Statement[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's types do not follow `info: true`, which turns each row into { record, info } (its documented shape).
    // Row lengths are checked below, after the header, so a header lacking a column is reported as that.
    rows = parse(body, { bom: true, info: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof rows;
  } catch (error) {
    if (error instanceof CsvError) throw new StatementError(`not RFC 4180 CSV: ${error.message}`, `line ${String(error.lines)}`);
    throw error;
  }
  const [header, ...records] = rows;
  if (!header) throw new StatementError('is empty; expected a header row naming the columns', 'line 1');
  const index = columns(header.record);

  const drafts = new Map<string, Draft>();
  for (const { record, info } of records) {
    const where = `line ${info.lines}`;
    if (record.length !== header.record.length) {
      throw new StatementError(`row has ${record.length} fields, the header ${header.record.length}`, where);
    }
    const cell = (column: Column) => (index.has(column) ? (record[index.get(column) ?? -1] ?? '').trim() : '');
    const need = (column: Column) => {
      const value = cell(column);
      if (!value) throw new StatementError(`${column} is empty`, where);
      return value;
    };
    const id = checkStatementId(need('statement_id'), where);
    const currency = need('currency');
    if (!CURRENCY_PATTERN.test(currency)) throw new StatementError(`currency ${JSON.stringify(currency)} is not ISO 4217`, where);
    const iban = normaliseIban(need('account_iban'));
    if (!iban) throw new StatementError(`account_iban ${JSON.stringify(cell('account_iban'))} is not a valid IBAN`, where);
    const draft = drafts.get(id) ?? newDraft(id, iban, currency, info.lines);
    drafts.set(id, draft);
    if (draft.statement.account.iban !== iban || draft.statement.currency !== currency) {
      throw new StatementError(`statement ${id} changes account or currency (it began at line ${draft.start})`, where);
    }
    const bookedAt = parseIsoDate(need('booked_at'), where);
    const direction = need('direction');
    if (direction === 'opening' || direction === 'closing') {
      if (draft[direction]) throw new StatementError(`statement ${id} has a second ${direction} row`, where);
      draft[direction] = true;
      const balance = parseAmount(need('amount'), currency, where, { decimalMark: '.', signed: true });
      if (direction === 'opening') Object.assign(draft.statement, { openingBalance: balance, from: bookedAt });
      else Object.assign(draft.statement, { closingBalance: balance, to: bookedAt, timeKnown: hasTimeOfDay(need('booked_at')) });
      continue;
    }
    if (direction !== 'credit' && direction !== 'debit') {
      throw new StatementError(`direction ${JSON.stringify(direction)} is not credit, debit, opening or closing`, where);
    }
    const reversal = cell('reversal');
    if (!['', 'true', 'false'].includes(reversal))
      throw new StatementError(`reversal ${JSON.stringify(reversal)} is not true or false`, where);
    const counterpartyIban = cell('counterparty_iban');
    const charges = cell('charges');
    const line: StatementLine = {
      bankTxId: need('bank_tx_id'),
      direction,
      amount: parseAmount(need('amount'), currency, where, { decimalMark: '.' }),
      currency,
      bookedAt,
      timeKnown: hasTimeOfDay(need('booked_at')),
      description: cell('description'),
      counterpartyName: cell('counterparty_name') || null,
      counterpartyIban: counterpartyIban ? (normaliseIban(counterpartyIban) ?? counterpartyIban) : null,
      endToEndId: cell('end_to_end_id') || null,
      returnReason: cell('return_reason') || null,
      purpose: cell('purpose') || null,
      reversal: reversal === 'true',
      charges: charges ? parseAmount(charges, currency, where, { decimalMark: '.' }) : null,
    };
    draft.statement.lines.push(checkLine(line, where));
  }

  if (drafts.size === 0) throw new StatementError('has a header but no rows', 'line 2');
  return [...drafts.values()].map((draft) => {
    const missing = !draft.opening ? 'opening' : !draft.closing ? 'closing' : null;
    if (missing) throw new StatementError(`statement ${draft.statement.id} has no ${missing} row`, `line ${draft.start}`);
    return draft.statement;
  });
}

function columns(header: string[]): Map<Column, number> {
  const known = new Set<string>([...REQUIRED, ...OPTIONAL]);
  const index = new Map<Column, number>();
  header.forEach((raw, position) => {
    const name = raw.trim();
    if (!known.has(name))
      throw new StatementError(`unknown column ${JSON.stringify(name)} (see docs/statements.md for the layout)`, 'line 1');
    if (index.has(name as Column)) throw new StatementError(`column ${name} appears twice`, 'line 1');
    index.set(name as Column, position); // checked against the known names just above
  });
  const missing = REQUIRED.filter((name) => !index.has(name));
  if (missing.length > 0)
    throw new StatementError(`the header lacks column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`, 'line 1');
  return index;
}

function newDraft(id: string, accountIban: string, currency: string, start: number): Draft {
  const statement: Statement = {
    id,
    account: ibanAccount(accountIban),
    currency,
    openingBalance: 0n,
    closingBalance: 0n,
    from: null,
    to: null,
    timeKnown: true,
    lines: [],
  };
  return { statement, start, opening: false, closing: false };
}
