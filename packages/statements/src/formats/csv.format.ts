import { parseCsv } from '../csv.parser.js';
import type { StatementFormatDescriptor } from './format.js';

/** Kasa's own CSV layout (docs/statements.md, CSV), for banks whose only export is a spreadsheet. */
export const csvFormat = {
  name: 'csv',
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
} as const satisfies StatementFormatDescriptor;
