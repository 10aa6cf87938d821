import { createRequire } from 'node:module';
import { parse as parseYaml } from 'yaml';
import { parsePythonLiteral, type PyValue } from './python-literal.js';
import type { Reference, ReferenceBalances, ReferenceLine } from './reference.js';

/* The three readers below take other projects' dumps apart; their shapes are checked where they are read, so the
   walks go through `unknown` with small guards rather than declared types the dumps never promised. */
type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const field = (value: unknown, key: string): unknown => (isObject(value) ? value[key] : undefined);
const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;

/**
 * The Python mt940 library's YAML dump (`yaml.dump` of its `Transactions`, python tags and all). Unknown tags resolve
 * as the plain map, sequence or string under them: `!!python/object/apply:decimal.Decimal ['3.47']` is `['3.47']`, a
 * `mt940.models.Date` a sequence holding its pickled bytes (year high, year low, month, day).
 */
export function readWolphYaml(source: string): Reference {
  // The failsafe schema keeps every scalar text, as PyYAML meant it: `0724710345313905` is a reference, not a number.
  const dump: unknown = parseYaml(source, { schema: 'failsafe', maxAliasCount: -1, logLevel: 'silent' });
  const value = (v: unknown): string | null => (typeof v === 'string' && v !== 'null' && v !== '~' ? v : null);
  const amountOf = (amount: unknown): string | null => {
    const decimal = field(amount, 'amount');
    return Array.isArray(decimal) ? value(decimal[0]) : value(decimal);
  };
  const dateOf = (date: unknown): string | undefined => {
    // `!!binary` is resolved by its explicit tag even in the failsafe schema; a plain string would be its base64.
    const pickled: unknown = Array.isArray(date) ? date[0] : null;
    const base64 = value(pickled);
    const bytes = pickled instanceof Uint8Array ? pickled : base64 ? Buffer.from(base64.replace(/\s+/g, ''), 'base64') : null;
    if (!bytes || bytes.length < 4) return undefined;
    const year = bytes[0]! * 256 + bytes[1]!;
    return `${year}-${String(bytes[2]).padStart(2, '0')}-${String(bytes[3]).padStart(2, '0')}`;
  };
  const balance = (value: unknown): string | null => (value ? amountOf(field(value, 'amount')) : null);
  const transactions = field(dump, 'transactions');
  const lines: ReferenceLine[] = [];
  for (const transaction of Array.isArray(transactions) ? transactions : []) {
    const data = field(transaction, 'data');
    const amount = amountOf(field(data, 'amount'));
    if (amount === null) continue; // the library opens an empty transaction for a statement without :61:
    const status = value(field(data, 'status')) ?? '';
    // The library signs by `status === 'D'` alone; SWIFT's RC (reversal of a credit) takes money out, RD brings it in.
    const magnitude = amount.replace(/^-/, '');
    const signed = status === 'D' || status === 'RC' ? `-${magnitude}` : magnitude;
    // The structured-:86: processor leaves its keys null on a free-text :86:.
    const structured = ['purpose', 'applicant_name', 'applicant_iban', 'posting_text'].some((key) => value(field(data, key)) !== null);
    // It splits SEPA keywords (EREF+, MREF+, SVWZ+) out of the purpose into fields of their own, so an empty purpose
    // says nothing about the description.
    const purpose = [value(field(data, 'purpose')), value(field(data, 'additional_purpose'))].filter((p) => p).join(' ');
    lines.push({
      amount: signed,
      date: dateOf(field(data, 'guessed_entry_date')) ?? dateOf(field(data, 'entry_date')) ?? dateOf(field(data, 'date')),
      references: [value(field(data, 'bank_reference')), value(field(data, 'customer_reference'))].filter((r): r is string => !!r),
      ...(structured
        ? {
            counterpartyName: value(field(data, 'applicant_name')),
            counterpartyIban: value(field(data, 'applicant_iban')),
            ...(purpose ? { description: purpose } : {}),
          }
        : { description: value(field(data, 'transaction_details')) ?? '' }),
    });
  }
  const statement = field(dump, 'data');
  return {
    lines,
    balances: [
      { opening: balance(field(statement, 'final_opening_balance')), closing: balance(field(statement, 'final_closing_balance')) },
      {
        opening: balance(field(statement, 'intermediate_opening_balance')),
        closing: balance(field(statement, 'intermediate_closing_balance')),
      },
    ],
    balancesOf: 'any',
  };
}

/**
 * OCA's golden files: `repr` of `(currency, account, [statement, ...])`, a statement a dict with `balance_start`,
 * `balance_end_real` and `transactions` (`amount`, `date`, `partner_name`, `account_number`, `ref`; field names moved
 * across Odoo versions, so each is read where present).
 */
export function readOcaPydata(source: string): Reference {
  const dump = parsePythonLiteral(source);
  const statements = Array.isArray(dump) ? dump[2] : undefined;
  const number = (value: PyValue | undefined): string | null => (isObject(value) && typeof value.number === 'string' ? value.number : null);
  const lines: ReferenceLine[] = [];
  const balances: ReferenceBalances[] = [];
  for (const statement of Array.isArray(statements) ? statements : []) {
    if (!isObject(statement) || Array.isArray(statement)) continue;
    const record = statement as Record<string, PyValue>;
    balances.push({ opening: number(record.balance_start), closing: number(record.balance_end_real) });
    for (const transaction of Array.isArray(record.transactions) ? record.transactions : []) {
      const line = transaction as Record<string, PyValue>;
      const amount = number(line.amount);
      if (amount === null) continue;
      const date = typeof line.date === 'string' ? line.date : undefined;
      const ref = typeof line.ref === 'string' ? line.ref : undefined;
      lines.push({
        amount,
        ...(date ? { date } : {}),
        ...(ref ? { references: [ref] } : {}),
        ...('partner_name' in line ? { counterpartyName: text(line.partner_name) } : {}),
        ...('account_number' in line ? { counterpartyIban: text(line.account_number) } : {}),
      });
    }
  }
  return { lines, balances, balancesOf: 'each' };
}

/**
 * @centrapay/swift-parser's jest snapshot (`Parser Full Examples <file> statements 1`): loaded through its own
 * CommonJS exports, each value the text pretty-format printed, read here back into objects.
 */
export function readCentrapaySnapshot(snapshotPath: string, fileName: string): Reference | null {
  const snapshot = createRequire(import.meta.url)(snapshotPath) as Record<string, string>;
  const printed = snapshot[`Parser Full Examples ${fileName} statements 1`];
  if (printed === undefined) return null;
  const statements = parsePrettyFormat(printed);
  const dateOf = (value: unknown): string | undefined =>
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : undefined;
  const lines: ReferenceLine[] = [];
  const balances: ReferenceBalances[] = [];
  for (const statement of Array.isArray(statements) ? statements : []) {
    balances.push({ opening: text(field(statement, 'openingBalance')), closing: text(field(statement, 'closingBalance')) });
    const transactions = field(statement, 'transactions');
    for (const transaction of Array.isArray(transactions) ? transactions : []) {
      const segments = field(transaction, 'detailSegments');
      const details = Array.isArray(segments) ? segments.join('') : null;
      lines.push({
        amount: text(field(transaction, 'amount')) ?? '',
        date: dateOf(field(transaction, 'entryDate')) ?? dateOf(field(transaction, 'date')),
        references: [text(field(transaction, 'bankReference')), text(field(transaction, 'reference'))].filter((r): r is string => !!r),
        ...(details !== null ? { description: structuredDescription(details) ?? details } : {}),
      });
    }
  }
  return { lines, balances, balancesOf: 'each' };
}

/**
 * The snapshot keeps a structured :86: raw (`>20text>31account>32name`, or with `?`); the description is its
 * subfields 20-29 and 60-63 in order, as the German and Polish layouts define them. Null for free text.
 */
function structuredDescription(details: string): string | null {
  const flat = details.replace(/\r?\n/g, '');
  if (!/^[?>]\d\d/.test(flat)) return null;
  return [...flat.matchAll(/[?>](\d\d)([^?>]*)/g)]
    .filter(([, code]) => (code! >= '20' && code! <= '29') || (code! >= '60' && code! <= '63'))
    .map(([, , body]) => body)
    .join('');
}

/**
 * genkgo/camt's JSON dump of its parsed `Message`: `getEntries` holds one statement's entries (amounts in signed minor
 * units; the last statement's in a file of several), each entry's `getRecord` that statement with its id and typed
 * balances.
 */
export function readGenkgoJson(source: string, decimals: (currency: string) => number): Reference {
  const dump = JSON.parse(source) as unknown;
  const minorAsDecimal = (money: unknown): string | null => {
    const minor = text(field(money, 'getAmount'));
    const currency = text(field(field(money, 'getCurrency'), 'getCode')) ?? '';
    if (minor === null || !/^-?\d+$/.test(minor)) return null;
    const places = decimals(currency);
    const digits = minor.replace('-', '').padStart(places + 1, '0');
    const sign = minor.startsWith('-') ? '-' : '';
    return places ? `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}` : `${sign}${digits}`;
  };
  const entries = field(dump, 'getEntries');
  const lines: ReferenceLine[] = [];
  let record: unknown;
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (isObject(field(entry, 'getRecord'))) record ??= field(entry, 'getRecord');
    const booked = text(field(field(entry, 'getBookingDate'), '0'));
    lines.push({
      amount: minorAsDecimal(field(entry, 'getAmount')) ?? '',
      ...(booked ? { date: booked.slice(0, 10) } : {}),
      references: [text(field(entry, 'getAccountServicerReference')), text(field(entry, 'getReference'))].filter((r): r is string => !!r),
    });
  }
  const balances = field(record, 'getBalances');
  const ofType = (type: string): string | null => {
    const found = (Array.isArray(balances) ? balances : []).find((b) => field(b, 'getType') === type);
    return found ? minorAsDecimal(field(found, 'getAmount')) : null;
  };
  const statementId = text(field(record, 'getId'));
  return {
    lines,
    balances: record ? [{ opening: ofType('opening'), closing: ofType('closing') }] : [],
    balancesOf: 'one',
    ...(statementId ? { statementId } : {}),
  };
}

/**
 * Reads jest's pretty-format text (snapshotFormat `escapeString: false`): `Name {` objects, `[` arrays, `"key": value,`
 * one a line. A string runs to the `",` that ends its line, since quotes inside it are not escaped. Dates and numbers
 * stay text.
 */
export function parsePrettyFormat(printed: string): unknown {
  let at = 0;
  const space = (): void => {
    while (/\s/.test(printed[at] ?? '')) at++;
  };
  function value(): unknown {
    space();
    const prefix = /^[A-Za-z]+ (?=[{[])/.exec(printed.slice(at, at + 40));
    if (prefix) at += prefix[0].length;
    const c = printed[at];
    if (c === '"') {
      const end = printed.indexOf('",\n', at + 1);
      const result = printed.slice(at + 1, end);
      at = end + 1;
      return result;
    }
    if (c === '{' || c === '[') {
      at++;
      const close = c === '{' ? '}' : ']';
      const items: unknown[] = [];
      const object: Loose = {};
      for (space(); printed[at] !== close; space()) {
        if (c === '{') {
          const key = /^"([^"]*)": /.exec(printed.slice(at))!;
          at += key[0].length;
          object[key[1]!] = value();
        } else items.push(value());
        space();
        if (printed[at] === ',') at++;
      }
      at++;
      return c === '{' ? object : items;
    }
    const word = /^[^,\n]*/.exec(printed.slice(at))![0];
    at += word.length;
    return word === 'undefined' || word === 'null' ? null : word;
  }
  return value();
}
