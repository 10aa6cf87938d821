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
  precedence: 20,
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
  reads:
    '(BankToCustomerAccountReport, 001.02 to 001.13; read and tested: 02 and 08) is read as camt.053 is, every ' +
    'field from the same element under `BkToCstmrAcctRpt/Rpt` instead of `BkToCstmrStmt/Stmt`, except its `id`: ' +
    "`Rpt/Id` + `/` + `Rpt/CreDtTm` (else the message's `GrpHdr/CreDtTm`), " +
    '`camt052_ONLINEBA/2018-07-23T12:43:32+01:00`. A bank sends several reports a day, and some give each the ' +
    'same `Id` (both real samples do, three years apart): by `Id` alone a later report would be the earlier one ' +
    'again, its balances lost. **What a report must have:** an intraday or interim report may carry no booked ' +
    'balance at all (only available ones such as `OPAV`, `ITAV`, `CLAV`, or one interim `ITBD`), and the ledger ' +
    "keeps a statement's opening and closing balances, checks its lines against them (`balanceProblem`) and " +
    'reconciles the account against the last closing one. A camt.052 is therefore read only when it has a booked ' +
    'opening (`OPBD`, `PRCD` or a first `ITBD`) and a booked closing balance (`CLBD` or a later `ITBD`), exactly ' +
    'as a camt.053; a report without them is refused, naming the balances it has, rather than read with lines ' +
    "nothing checks. Its pending entries (`PDNG`) are skipped as camt.053's are, to come booked in a later report " +
    "or statement; a line that a report brought in and the day's camt.053 repeats with the same bank reference is " +
    'the same line again (see "Which lines are the same line"). **A report must open at the day\'s opening:** the ' +
    'line key numbers the lines sharing reference, direction, amount and day within one file, so two files give a ' +
    'line the same key only when each holds every line of the day from its opening, as reports of the day so far ' +
    "do (each repeats the earlier lines, in order) and the day's camt.053. A report of only the lines since the " +
    'previous one could give a new line (a second `NONREF` credit of 10.00 that day) the key of one already ' +
    'imported, and its money would never be recorded. A report with booked lines is therefore read only when it ' +
    'opens at the opening of the first day they are booked on (`Ntry/BookgDt`): at `OPBD` (whatever its date), or ' +
    "at a `PRCD` dated before that day, the previous day's close (hbci4java's 001.02 report: `PRCD` 2018-07-19, " +
    'lines 2018-07-20). With the balance check, it then holds every line booked since. One that opens at an ' +
    "interim `ITBD`, or at a `PRCD` of that day or later or without a date (an earlier report's close), is " +
    'refused at its opening `Bal` (the import answers 400, as for a file that cannot be read), naming that ' +
    "balance: import a report that opens at the day's opening balance (`OPBD`), or the day's camt.053. So is one " +
    'whose period (`FrToDt/FrDtTm`) starts after midnight of that day, even at an `OPBD`, since a bank may open ' +
    'each report of the lines since the last at an `OPBD` of that moment; a report that says no period is taken ' +
    "at its `OPBD`'s word. A report without booked lines is read whatever its opening, as it keys no line.",
  refuses:
    'all that camt.053 refuses, for a report (`Rpt`) and a camt.052 version outside 001.02 to 001.13; and so a ' +
    'report without a booked opening and closing balance: one of available balances only (`OPAV`, `CLAV`) or of ' +
    'one interim `ITBD` ("has no closing balance (a Bal of type CLBD or a second ITBD); its balances: ITBD"). A ' +
    "report with booked lines that does not open at their day's opening: an `ITBD` opening, or a `PRCD` of their " +
    'first day or later or undated ("opens at ITBD 2023-11-08, not at the opening of 2023-11-10, the first day ' +
    'its entries are booked on: ..."), or a period starting after midnight of that day ("covers from ' +
    '2023-11-10T10:15:00+01:00, after the opening of 2023-11-10, ...").',
} as const satisfies StatementFormatDescriptor;
