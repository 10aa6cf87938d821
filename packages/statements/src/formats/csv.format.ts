import { parseCsv } from '../csv.parser.js';
import type { StatementFormatDescriptor } from './format.js';

/** Kasa's own CSV layout (docs/statements.md, CSV), for banks whose only export is a spreadsheet. */
export const csvFormat = {
  name: 'csv',
  precedence: 40,
  choice: 'csv',
  label: "Kasa's CSV",
  choiceLabel: 'Kasa CSV',
  contentTypes: ['text/csv', 'application/csv'],
  uploadContentType: 'text/csv',
  extensions: ['.csv'],
  detect(body) {
    const start = body.trimStart();
    const header = start.slice(0, start.search(/\r?\n|$/));
    return /^[a-z_]+(,[a-z_]+)+\s*$/.test(header) ? 0.7 : 0;
  },
  parse: (body) => ({ statements: parseCsv(body), refused: [] }),
  samples: ['statement.csv'],
  recognisedBy: 'the first line is a header row of lower-case column names',
  refuses:
    "an `account_iban` that is not a valid IBAN (ISO 13616 check digits: Kasa's own layout names the IBAN); a " +
    'header lacking a required column, an unknown column (typos would otherwise lose data) or a repeated one; a ' +
    'row with another number of fields than the header; broken quoting; an empty required value; a direction ' +
    'other than the four; a statement without its `opening` or `closing` row, with two of either, or changing ' +
    'account or currency.',
} as const satisfies StatementFormatDescriptor;
