/**
 * @kasa/statements: bank statements (ISO 20022 camt.053, SWIFT MT940, Kasa's CSV layout) read into one shape, with
 * amounts in exact minor units. Pure parsing: no database, no HTTP. The formats, the fields read and what is refused
 * are in docs/statements.md.
 */
export type { StatementFormat, StatementLine, Statement, ParsedStatements } from './statement.js';
export { StatementError } from './statement.js';
export type { StatementAccount, KnownAccount } from './account-id.js';
export { readAccount, isAccountOf, maskAccountNumber } from './account-id.js';
export { parseStatements, decodeStatementBody } from './parse-statements.js';
export { readStatementFile, OFF_THREAD_FROM_BYTES } from './read-statement-file.js';
export { MAX_AMOUNT_DIGITS, MAX_XML_DEPTH } from './limits.js';
export { balanceProblem } from './balance-problem.js';
