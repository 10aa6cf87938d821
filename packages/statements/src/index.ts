/**
 * @kasa/statements: bank statements, in each format of the registry (formats/index.ts), read into one shape, with
 * amounts in exact minor units. Pure parsing: no database, no HTTP. The formats, the fields read and what is refused
 * are in docs/statements.md.
 */
export type { StatementFormat, StatementLine, Statement, ParsedStatements, RefusedStatement } from './statement.js';
export { StatementError } from './statement.js';
export type { StatementAccount, KnownAccount } from './account-id.js';
export { readAccount, isAccountOf, maskAccountNumber } from './account-id.js';
export { parseStatements, decodeStatementBody } from './parse-statements.js';
export type { StatementFormatDescriptor } from './formats/index.js';
export {
  STATEMENT_FORMATS,
  GENERIC_CONTENT_TYPES,
  ACCEPTED_EXTENSIONS,
  ACCEPTED_FILES_TEXT,
  FORMAT_CHOICES_TEXT,
  UPLOAD_CONTENT_TYPES_TEXT,
  formatsNamedBy,
  formatByChoice,
  formatByFileName,
  isStatementContentType,
} from './formats/index.js';
export type { BankProfile, ProfileSource } from './profiles/index.js';
export { BANK_PROFILES, UNSOURCED_BANKS, applyBankProfile, bankProfileOf } from './profiles/index.js';
export { readStatementFile, OFF_THREAD_FROM_BYTES } from './read-statement-file.js';
export { MAX_AMOUNT_DIGITS, MAX_XML_DEPTH } from './limits.js';
export { balanceProblem } from './balance-problem.js';
