import { parseCamt053 } from '../camt053.parser.js';
import type { StatementFormatDescriptor } from './format.js';

/** ISO 20022 BankToCustomerStatement (camt.053.001.02 to .13). */
export const camt053Format = {
  name: 'camt.053',
  precedence: 10,
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
  refuses:
    "malformed XML (with the parser's line); a `DOCTYPE` (ISO 20022 documents have none; refusing it closes the " +
    'door on entity tricks); a root other than `Document`; a namespace that is not ISO 20022, another document ' +
    'type (`camt.054`, `pain.001`, ...; a camt.052 is read as camt.052), or a camt.053 version outside 001.02 to ' +
    '001.13 (a test reads each); a statement without `Id`, account (`Acct/Id/IBAN` or `Acct/Id/Othr/Id`), opening ' +
    'or closing balance (available balances such as `CLAV` do not count: the error lists the balances it has); a ' +
    'balance in another currency than the account; a booked entry without `CdtDbtInd` `CRDT`/`DBIT`, or without ' +
    'any date (no `BookgDt` or `ValDt` in a statement of several days); a batch whose transactions do not add up ' +
    'to the entry, or in which some give an amount and others none.',
} as const satisfies StatementFormatDescriptor;
