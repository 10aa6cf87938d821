import { checkOpensDay, readBalance, statementBalances, statementDay } from './camt053-balances.js';
import { readEntry } from './camt053-entry.js';
import { currencyOf, required } from './camt053-fields.js';
import { parseIsoDate } from './dates.js';
import { readAccount, type StatementAccount } from './account-id.js';
import { checkStatementId } from './limits.js';
import { StatementError, type Statement } from './statement.js';
import { all, at, readXml, textAt, type XmlElement } from './xml-tree.js';

const ISO_20022 = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3}\.\d{3}\.\d{2})$/;
/** Read and tested: 02 and 08. The elements read here are the same from 02 to 13 (Dbtr/Nm became Dbtr/Pty/Nm in 08). */
const FIRST_VERSION = 2;
const LAST_VERSION = 13;

/**
 * A bank-to-customer message of the camt family that reports booked entries against booked balances, one account's
 * statement per repeating element: camt.053 (`BkToCstmrStmt/Stmt`) and camt.052 (`BkToCstmrAcctRpt/Rpt`) share every
 * element below that one, so one reader takes them both, told apart by this.
 */
export interface CamtMessage {
  /** The document type its namespace names, without the version: `camt.053`. */
  readonly documentType: string;
  /** What it is, for the error naming another document type: `bank-to-customer statement`. */
  readonly inWords: string;
  /** The element under `Document` holding the message: `BkToCstmrStmt`. */
  readonly message: string;
  /** The message's element for one account's statement: `Stmt`. */
  readonly statement: string;
  /** The statement's id, from its element and the message's group header (`GrpHdr`), at `where`. */
  readonly idOf: (statement: XmlElement, header: XmlElement | undefined, where: string) => string;
  /**
   * Whether a statement with booked entries must open at the opening of their day (camt053-balances.ts,
   * `checkOpensDay`): set for camt.052, as some banks' reports carry only the lines since the previous report. A
   * camt.053 statement is read whatever its opening balance, as before.
   */
  readonly fromDayOpening?: boolean;
}

/** ISO 20022 BankToCustomerStatement: a statement's id is its `Stmt/Id`. */
export const CAMT_053: CamtMessage = {
  documentType: 'camt.053',
  inWords: 'bank-to-customer statement',
  message: 'BkToCstmrStmt',
  statement: 'Stmt',
  idOf: (stmt, _header, where) => required(stmt, 'Id', where),
};

/** ISO 20022 BankToCustomerStatement (camt.053.001.02 to .13): every Stmt in the document, booked entries only. */
export function parseCamt053(body: string): Statement[] {
  return parseCamt(body, CAMT_053);
}

/** A camt `message` (001.02 to .13): every statement element in the document, booked entries only. */
export function parseCamt(body: string, message: CamtMessage): Statement[] {
  const tree = readXml(body);
  const rootName = Object.keys(tree).find((name) => !name.startsWith('?'));
  const root = rootName === undefined ? undefined : at(tree, rootName);
  if (rootName !== 'Document' || root === undefined) {
    throw new StatementError(`root element is <${rootName ?? 'nothing'}>, not an ISO 20022 <Document>`, rootName ?? 'line 1');
  }
  checkDocumentType(root, message);
  const content = at(root, message.message);
  const statements = all(content, message.statement);
  if (statements.length === 0) throw new StatementError(`has no ${message.statement}`, `Document/${message.message}`);
  const header = at(content, 'GrpHdr');
  return statements.map((stmt, index) => readStatement(stmt, `${message.statement}[${index + 1}]`, message, header));
}

function checkDocumentType(root: XmlElement, message: CamtMessage): void {
  const namespaces = Object.entries(root).flatMap(([name, value]) =>
    name === '@xmlns' || name.startsWith('@xmlns:') ? [typeof value === 'string' ? value : ''] : [],
  );
  const documentType = namespaces.map((ns) => ISO_20022.exec(ns)?.[1]).find((type) => type !== undefined);
  const { documentType: expected } = message;
  if (documentType === undefined) {
    throw new StatementError(`Document has no ISO 20022 namespace (urn:iso:std:iso:20022:tech:xsd:${expected}.001.NN)`, 'Document');
  }
  const version = documentType.startsWith(`${expected}.001.`) ? documentType.slice(-2) : undefined;
  if (version === undefined) {
    throw new StatementError(`document is ${documentType}, not a ${expected} ${message.inWords}`, 'Document');
  }
  if (Number(version) < FIRST_VERSION || Number(version) > LAST_VERSION) {
    throw new StatementError(`${expected} version ${documentType} is not supported (001.02 to 001.13 are)`, 'Document');
  }
}

function readStatement(stmt: XmlElement, where: string, message: CamtMessage, header: XmlElement | undefined): Statement {
  const id = checkStatementId(message.idOf(stmt, header, where), `${where}/Id`);
  const account = readCamtAccount(stmt, where);

  const { opening, closing } = statementBalances(stmt, where);
  const currency = textAt(stmt, 'Acct/Ccy') ?? currencyOf(closing.bal, closing.where);

  const day = statementDay(stmt, where, opening, closing);
  const entries = all(stmt, 'Ntry').map((ntry, index) => ({ ntry, lines: readEntry(ntry, `${where}/Ntry[${index + 1}]`, day) }));
  const lines = entries.flatMap((entry) => entry.lines);
  const booked = entries.flatMap((entry) => (entry.lines.length > 0 ? [entry.ntry] : []));
  if (message.fromDayOpening) checkOpensDay(stmt, where, opening, booked);
  const from = textAt(stmt, 'FrToDt/FrDtTm');
  const to = textAt(stmt, 'FrToDt/ToDtTm');
  return {
    id,
    account,
    currency,
    openingBalance: readBalance(opening, currency),
    closingBalance: readBalance(closing, currency),
    from: from === undefined ? null : parseIsoDate(from, `${where}/FrToDt/FrDtTm`),
    to: to === undefined ? null : parseIsoDate(to, `${where}/FrToDt/ToDtTm`),
    timeKnown: true,
    lines,
  };
}

/**
 * `Acct/Id/IBAN` (one whose check digits fail kept as the number), else `Acct/Id/Othr/Id`, a bank's own account number
 * (its `SchmeNm` says which kind, `BBAN` for example); the servicer's BIC as the bank code when given.
 */
function readCamtAccount(stmt: XmlElement, where: string): StatementAccount {
  const iban = textAt(stmt, 'Acct/Id/IBAN');
  const other = textAt(stmt, 'Acct/Id/Othr/Id');
  if (iban === undefined && other === undefined) throw new StatementError('is missing (neither IBAN nor Othr/Id)', `${where}/Acct/Id`);
  const account = readAccount(iban ?? other ?? '', `${where}/Acct/Id/${iban === undefined ? 'Othr/Id' : 'IBAN'}`);
  const bic = textAt(stmt, 'Acct/Svcr/FinInstnId/BIC') ?? textAt(stmt, 'Acct/Svcr/FinInstnId/BICFI');
  return account.bankCode === null && bic !== undefined ? { ...account, bankCode: bic } : account;
}
