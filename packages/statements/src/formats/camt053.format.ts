import { parseCamt053 } from '../camt053.parser.js';
import type { StatementFormatDescriptor } from './format.js';

/** ISO 20022 BankToCustomerStatement (camt.053.001.02 to .13). */
export const camt053Format = {
  name: 'camt.053',
  choice: 'camt',
  label: 'camt.053',
  choiceLabel: 'camt.053 (XML)',
  contentTypes: ['application/xml', 'text/xml'],
  contentTypePattern: { test: /^[\w.-]+\/[\w.-]+\+xml$/, inWords: '`*/*+xml`' },
  uploadContentType: 'application/xml',
  extensions: ['.xml', '.camt', '.053'],
  // Any XML that no surer format takes is read as camt.053: the parser then names the document type it found when it is
  // another (camt.054, pain.001, ...).
  detect: (body) => (body.trimStart().startsWith('<') ? 0.9 : 0),
  parse: (body) => ({ statements: parseCamt053(body), refused: [] }),
  samples: ['camt053-v02.xml', 'camt053-v08.xml'],
  recognisedBy: 'the body starts with `<`, and no surer XML format takes it',
} as const satisfies StatementFormatDescriptor;
