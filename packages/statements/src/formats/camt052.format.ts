import { required } from '../camt053-fields.js';
import { parseCamt, type CamtMessage } from '../camt053.parser.js';
import { textAt } from '../xml-tree.js';
import { camt053Format } from './camt053.format.js';
import type { StatementFormatDescriptor } from './format.js';

/** How far into a body the `Document` start tag may come (after the XML declaration and comments). */
const HEADER_ROOM = 2000;

/** A `Document` start tag (any prefix) whose namespace is camt.052's, of any version. */
const CAMT_052_DOCUMENT = /<(?:[\w.-]+:)?Document\b[^>]*\bxmlns(?::[\w.-]+)?\s*=\s*["']urn:iso:std:iso:20022:tech:xsd:camt\.052\./;

/**
 * ISO 20022 BankToCustomerAccountReport: a camt.053 statement's elements under `BkToCstmrAcctRpt/Rpt`. A report's
 * id is `Rpt/Id` with its creation time (`Rpt/CreDtTm`, else the message's `GrpHdr/CreDtTm`): a bank sends several
 * reports a day, and some give every one the same `Id` (`camt052_ONLINEBA` in both samples, three years apart), which
 * would make a later report the earlier one again.
 */
const CAMT_052: CamtMessage = {
  documentType: 'camt.052',
  inWords: 'bank-to-customer account report',
  message: 'BkToCstmrAcctRpt',
  statement: 'Rpt',
  idOf(rpt, header, where) {
    const id = required(rpt, 'Id', where);
    const created = textAt(rpt, 'CreDtTm') ?? textAt(header, 'CreDtTm');
    return created === undefined ? id : `${id}/${created}`;
  },
  fromDayOpening: true,
};

/**
 * ISO 20022 BankToCustomerAccountReport (camt.052.001.02 to .13), the intraday or interim report: read as camt.053
 * is, so a report without booked opening and closing balances (only available ones such as `OPAV`/`CLAV`, or one
 * interim `ITBD`) is refused as a statement without them is: its lines would have nothing to be checked against. A
 * report with booked lines must also open at their day's opening (`OPBD`, or a `PRCD` of an earlier day): one that
 * opens later carries only the lines since an earlier report, whose keys the ledger could not tell from that report's.
 */
export const camt052Format = {
  name: 'camt.052',
  choice: 'camt052',
  label: 'camt.052',
  choiceLabel: 'camt.052 (XML)',
  // XML, as camt.053: a type naming both leaves the choice to detect() below.
  contentTypes: camt053Format.contentTypes,
  contentTypePattern: camt053Format.contentTypePattern,
  uploadContentType: 'application/xml',
  extensions: ['.052'],
  detect(body) {
    const start = body.trimStart();
    return start.startsWith('<') && CAMT_052_DOCUMENT.test(start.slice(0, HEADER_ROOM)) ? 0.95 : 0;
  },
  parse: (body) => ({ statements: parseCamt(body, CAMT_052), refused: [] }),
  samples: ['camt052-v02-hbci4java.xml', 'camt052-v08-hbci4java.xml'],
  recognisedBy: 'the body is XML whose `Document` names camt.052 (`urn:iso:std:iso:20022:tech:xsd:camt.052.001.NN`)',
} as const satisfies StatementFormatDescriptor;
