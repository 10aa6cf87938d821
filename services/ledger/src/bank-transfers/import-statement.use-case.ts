import {
  applyBankProfile,
  balanceProblem,
  isAccountOf,
  maskAccountNumber,
  readStatementFile,
  StatementError,
  type RefusedStatement,
  type Statement,
} from '@kasa/statements';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import type { ReceivingAccountRepository } from '../sites/receiving-account.repository.js';
import type { ReceivingBankAccount } from '@kasa/db';
import {
  afterLinesCommitted,
  countsOf,
  newTally,
  promiseLineWork,
  recordLines,
  type LineCounts,
  type RecordLinesDeps,
} from './record-lines.js';
import type { ScreeningRepository } from '../screening/screening.repository.js';
import { toImportedLine } from './line-outcomes.js';

export interface ImportStatementDeps extends RecordLinesDeps {
  accounts: ReceivingAccountRepository;
  screenings: ScreeningRepository;
}

/** What importing a file did; `created: 0` when every line was imported before. */
export interface StatementImport extends LineCounts {
  statementId: string;
  /** Batched payouts a debit line confirmed (SENT), and sent withdrawals a credit line brought back (RETURNED). */
  payoutsSent: number;
  payoutsReturned: number;
  format: string;
  statements: Array<{ statementId: string; reference: string }>;
  lines: number;
  /** What became of each of the file's first lines (LINES_LISTED, 1,000), in file order, and why (line-outcomes.ts). */
  lineOutcomes: Array<ReturnType<typeof toImportedLine>>;
  /** The file's lines past the listed ones (counted above, not listed). */
  lineOutcomesOmitted: number;
  /**
   * Statements of the file that could not be read (an MT940 statement without its closing balance, ...): nothing of
   * them was imported; the file's other statements were. Empty for a whole file.
   */
  refusedStatements: RefusedStatement[];
}

/** The only currency Kasa keeps accounts in. */
const CURRENCY = 'TRY';

/**
 * Room for a file's transaction per line, beyond the transitions' 20 s: a file up to the route's 10 MiB holds some
 * 20,000 lines, which a loaded machine records in more than 20 s, and a file refused for taking long is refused for
 * nothing the operator can mend.
 */
const TRANSACTION_MS_PER_LINE = 3;

/**
 * Imports a statement file of a receiving account in one transaction: each credit line is recorded exactly as an
 * operator's transfer is (record-arrival.ts: matched by reference, the deposit moved, audited), each debit
 * line kept for the payouts. A line is known by the bank's reference on this account, so the same file or an
 * overlapping statement imported again (also at the same moment) creates nothing new. The whole file is refused,
 * and nothing imported, when it cannot be read (400, with the place), or a statement is of another account, in
 * another currency or does not add up (422). A statement the reader set aside whole (an MT940 statement without its
 * closing balance, in a file of several) is listed in `refusedStatements` and nothing of it imported, while the file's
 * other statements are: sending the mended file again adds just that statement's lines (the others are known). One `BANK_STATEMENT.IMPORTED` audit entry when anything was created.
 * The work its commit promises is written in the same transaction as follow-ups and carried out once committed (or,
 * after a crash, by the follow-up worker, or by importing the file again): each deposit its site's straight-through
 * rule covers approved (record-lines.ts), each batched payout a line confirmed marked SENT or RETURNED.
 */
export async function importStatement(
  deps: ImportStatementDeps,
  request: OperatorRequest,
  accountId: string,
  file: { bytes: Uint8Array; contentType: string },
): Promise<StatementImport> {
  const account = isUuid(accountId) ? await deps.accounts.findById(accountId) : null;
  if (!account) throw new AppError('not_found', 'No receiving account with this id.');
  const { format, statements, refused } = await readStatements(file.bytes, file.contentType);
  for (const statement of statements) checkStatement(statement, account);
  const lines = statements.reduce((sum, s) => sum + s.lines.length, 0);

  const actor = actorOf(request.caller);
  const outcome = await inTransaction(
    deps,
    async (tx) => {
      const tally = newTally();
      const imported: Array<{ statementId: string; reference: string }> = [];
      for (const statement of statements) {
        const { id: statementId } = await deps.statements.insertUnlessKnown(tx, {
          receivingAccountId: account.id,
          statementRef: statement.id,
          format,
          currency: statement.currency,
          openingBalance: statement.openingBalance,
          closingBalance: statement.closingBalance,
          periodFrom: statement.from,
          periodTo: statement.to,
          periodTimeKnown: statement.timeKnown,
        });
        imported.push({ statementId, reference: statement.id });
        // The sender's name and IBAN its bank writes in the free text, read by the bank's profile (docs/statements.md).
        const { lines: read } = applyBankProfile(statement, account.iban);
        await recordLines(tx, deps, actor, { receivingAccountId: account.id, statementId }, read, tally, request.requestId);
      }
      await promiseLineWork(tx, deps, { receivingAccountId: account.id }, tally, request.requestId);
      const [first] = imported;
      // A file without statements is refused while reading; the check keeps the type honest.
      if (!first) throw new Error('a statement file with no statement');
      if (tally.counts.created > 0) {
        await writeAudit(tx, {
          actor,
          action: 'BANK_STATEMENT.IMPORTED',
          entityType: 'bank_statement',
          entityId: first.statementId,
          metadata: {
            receivingAccountId: account.id,
            format,
            statements: imported.map((s) => s.reference),
            ...(refused.length > 0 ? { refusedStatements: refused.map((r) => r.statementId) } : {}),
            lines,
            ...tally.counts,
          },
        });
      }
      return { first, imported, tally };
    },
    { timeoutMs: lines * TRANSACTION_MS_PER_LINE },
  );
  const counts = await afterLinesCommitted(deps, request, { receivingAccountId: account.id }, outcome.tally);

  const result: StatementImport = {
    statementId: outcome.first.statementId,
    format,
    statements: outcome.imported,
    lines,
    ...counts,
    lineOutcomes: outcome.tally.outcomes.map(toImportedLine),
    lineOutcomesOmitted: lines - outcome.tally.outcomes.length,
    refusedStatements: refused,
  };
  if (refused.length > 0) {
    // The operator sees them in the answer; the log says a file came in part (statement ids only, no account).
    deps.logger.warn('bank statement file imported in part', {
      requestId: request.requestId,
      receivingAccountId: account.id,
      refusedStatements: refused,
    });
  }
  deps.logger.info('bank statement imported', {
    requestId: request.requestId,
    receivingAccountId: account.id,
    statementId: result.statementId,
    format,
    lines: result.lines,
    ...countsOf(result),
    operatorId: request.caller.operatorId,
  });
  return result;
}

/**
 * The file read into statements, or a 400 naming the place a StatementError points at. A large file is read on a
 * worker thread (readStatementFile), so its parsing never holds up the ledger's other requests.
 */
async function readStatements(bytes: Uint8Array, contentType: string) {
  try {
    const parsed = await readStatementFile(bytes, contentType);
    if (parsed.statements.length === 0) throw new StatementError('holds no statement', 'line 1');
    return parsed;
  } catch (error) {
    if (!(error instanceof StatementError)) throw error;
    throw AppError.validation([{ field: error.location, message: error.reason }], `The statement file cannot be read: ${error.message}`);
  }
}

/**
 * A statement Kasa can trust for this account: the account's own (its IBAN, or its account number and branch code:
 * docs/statements.md, Whose statement), in TRY, its lines adding up to its balances.
 */
function checkStatement(statement: Statement, account: ReceivingBankAccount): void {
  if (!isAccountOf(statement.account, account)) {
    const { iban, number, bankCode, branchCode } = statement.account;
    const theirs = accountShown(iban, number, bankCode, branchCode);
    const ours = accountShown(account.iban, account.accountNumber, null, account.branchCode);
    throw new AppError(
      'statement_rejected',
      `Statement ${statement.id} is of account ${theirs}, not of this receiving account (${ours}); nothing was imported.`,
    );
  }
  const currencies = new Set([statement.currency, ...statement.lines.map((line) => line.currency)]);
  if (currencies.size !== 1 || !currencies.has(CURRENCY)) {
    throw new AppError(
      'statement_rejected',
      `Statement ${statement.id} is in ${[...currencies].join(', ')}; only ${CURRENCY} statements are imported. Nothing was imported.`,
    );
  }
  const problem = balanceProblem(statement);
  if (problem) throw new AppError('statement_rejected', `${problem}. Nothing was imported.`);
}

/**
 * An account for a message that may be logged: an IBAN or account number cut to its last four characters, a bank code
 * (a BIC is at most 11 characters; anything longer may be a number) and a branch code as written.
 */
function accountShown(iban: string | null, number: string | null, bankCode: string | null, branchCode: string | null): string {
  return [
    iban && maskIban(iban),
    number && `number ${maskAccountNumber(number)}`,
    bankCode && `bank ${bankCode.length <= 11 ? bankCode : maskAccountNumber(bankCode)}`,
    branchCode && `branch ${branchCode}`,
  ]
    .filter(Boolean)
    .join(', ');
}
