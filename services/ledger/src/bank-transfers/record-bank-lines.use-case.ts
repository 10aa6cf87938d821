import type { RequestOf } from '@kasa/contracts';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { StatementLine } from '@kasa/statements';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import type { ImportStatementDeps } from './import-statement.use-case.js';
import { afterLinesCommitted, countsOf, newTally, promiseLineWork, recordLines, type LineCounts } from './record-lines.js';

/** What posting a batch of lines did; `created: 0` when every line was known. */
export interface RecordedBankLines extends LineCounts {
  lines: number;
  /** Batched payouts a debit line confirmed (SENT), and sent withdrawals a credit line brought back (RETURNED). */
  payoutsSent: number;
  payoutsReturned: number;
}

/** The only currency Kasa keeps accounts in. */
const CURRENCY = 'TRY';

/**
 * Records the lines a bank connector posts for a receiving account (its real-time feed) in one transaction, exactly
 * as a statement import's lines (record-lines.ts): a credit recorded and matched as a transfer, a debit kept with no
 * statement, a `bankTxId` the account already has counted as a duplicate (also when posted at the same moment).
 * One `BANK_LINES.RECORDED` audit entry when anything was created. The follow-ups its commit promises (straight-through
 * approvals, payouts sent or returned) are written with the lines and carried out once committed; the same lines posted
 * again resume those still pending.
 */
export async function recordBankLines(
  deps: ImportStatementDeps,
  request: OperatorRequest,
  accountId: string,
  input: RequestOf<'recordBankLines'>,
): Promise<RecordedBankLines> {
  const account = isUuid(accountId) ? await deps.accounts.findById(accountId) : null;
  if (!account) throw new AppError('not_found', 'No receiving account with this id.');
  const lines = input.lines.map(lineOf);
  const known = new Set<string>();
  for (const [index, line] of lines.entries()) {
    if ((line.counterpartyIban?.length ?? 0) > 34) {
      throw AppError.validation([{ field: `lines[${index}].senderIban`, message: 'must be an IBAN of at most 34 characters' }]);
    }
    if (known.has(line.bankTxId)) {
      throw AppError.validation(
        [{ field: `lines[${index}].bankTxId`, message: 'appears twice in the request' }],
        `Line ${index} repeats bankTxId ${line.bankTxId}; each line must have its own.`,
      );
    }
    known.add(line.bankTxId);
  }

  const actor = actorOf(request.caller);
  const tally = await inTransaction(deps, async (tx) => {
    const running = newTally();
    await recordLines(tx, deps, actor, { receivingAccountId: account.id, statementId: null }, lines, running, request.requestId);
    await promiseLineWork(tx, deps, { receivingAccountId: account.id }, running, request.requestId);
    if (running.counts.created > 0) {
      await writeAudit(tx, {
        actor,
        action: 'BANK_LINES.RECORDED',
        entityType: 'receiving_account',
        entityId: account.id,
        metadata: { lines: lines.length, ...running.counts },
      });
    }
    return running;
  });
  const result: RecordedBankLines = {
    lines: lines.length,
    ...(await afterLinesCommitted(deps, request, { receivingAccountId: account.id }, tally)),
  };
  deps.logger.info('bank lines recorded', {
    requestId: request.requestId,
    receivingAccountId: account.id,
    lines: result.lines,
    ...countsOf(result),
    operatorId: request.caller.operatorId,
  });
  return result;
}

/** A posted line as the statement parsers give one, so it takes the statement import's path. */
function lineOf(line: RequestOf<'recordBankLines'>['lines'][number]): StatementLine {
  return {
    bankTxId: line.bankTxId,
    direction: line.direction,
    amount: BigInt(line.amount),
    currency: line.currency ?? CURRENCY,
    bookedAt: new Date(line.receivedAt),
    // A connector posts the moment the bank booked the line (a date-time the request schema requires).
    timeKnown: true,
    description: line.description,
    counterpartyName: line.senderName.trim() || null,
    counterpartyIban: line.senderIban.replace(/\s+/g, '') ? normalizeIban(line.senderIban) : null,
    endToEndId: null,
    returnReason: null,
    purpose: line.purpose?.trim() || null,
    reversal: false,
    charges: null,
  };
}
