import type { BankTransfer, Prisma } from '@kasa/db';
import type { StatementLine } from '@kasa/statements';
import { writeAudits, type Actor, type AuditEntry } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import type { BankTransferRepository } from './bank-transfer.repository.js';
import { daysApart } from './line-key.js';

/** A bank line's day may differ from the day an operator typed by this much and still be the same transaction. */
const DAYS_APART_ALLOWED = 1;

/** Where the lines came from: their account, and the statement they are in (null: a connector's feed). */
interface Source {
  receivingAccountId: string;
  statementId: string | null;
}

/** What a hand entry's difference with the bank's line records, for the operator (JSON: amounts as strings). */
export interface BankLineDifference {
  bankLineKey: string;
  bankAmount: string;
  handAmount: string;
  bankBookedAt: string;
  handReceivedAt: string;
  statementId: string | null;
  detectedAt: string;
}

/** What the bank's lines did to the account's hand entries. */
export interface HandEntryAnswers {
  /** The credit lines that answered no hand entry: new lines, to record. */
  others: StatementLine[];
  confirmed: number;
  differences: number;
  /** Lines that had answered a hand entry before (the same line again): nothing new. */
  known: number;
  /** What each line that answered a hand entry did, and to which hand entry (the import's answer lists it). */
  answered: Map<StatementLine, { answer: 'confirmed' | 'difference' | 'known'; bankTransferId: string }>;
}

const agrees = (entry: BankTransfer, line: StatementLine) =>
  entry.amount === line.amount && daysApart(entry.receivedAt, line.bookedAt) <= DAYS_APART_ALLOWED;

/**
 * The bank's own credit lines answering what operators recorded by hand on the account (docs/statements.md, "Which
 * lines are the same line"), inside the caller's transaction. A hand entry not answered yet is answered by the batch's
 * first line with its reference that agrees with it (the same amount, booked within a day), else by the first line with
 * its reference: agreeing, the line confirms it (it is that transfer, already recorded and credited); disagreeing, the
 * line is kept on the hand entry as a difference for an operator, never credited a second time. A line that answered a
 * hand entry before is known (a statement carrying a line the connector confirmed it with confirms it for
 * reconciliation). Audited per hand entry. Returns the lines left to record as new transfers.
 */
export async function answerHandEntries(
  tx: Prisma.TransactionClient,
  deps: { bankTransfers: BankTransferRepository; clock: Clock },
  actor: Actor,
  source: Source,
  credits: readonly StatementLine[],
  keys: ReadonlyMap<StatementLine, string>,
): Promise<HandEntryAnswers> {
  const answers: HandEntryAnswers = { others: [], confirmed: 0, differences: 0, known: 0, answered: new Map() };
  const entries = await deps.bankTransfers.lockHandEntries(
    tx,
    source.receivingAccountId,
    credits.map((line) => line.bankTxId),
  );
  if (entries.length === 0) return { ...answers, others: [...credits] };

  const answeredBy = new Map(entries.flatMap((entry) => (entry.bankLineKey ? [[entry.bankLineKey, entry] as const] : [])));
  const open = entries.filter((entry) => !entry.bankLineKey);
  const taken = new Map<StatementLine, BankTransfer>();
  const paired = new Set<BankTransfer>();
  const keyOf = (line: StatementLine) => keys.get(line) ?? '';
  const fresh = credits.filter((line) => !answeredBy.has(keyOf(line)));
  // Agreeing lines first, so a repeated reference (NONREF) pairs each hand entry with its own line where one agrees.
  for (const pass of [agrees, () => true]) {
    for (const entry of open) {
      if (paired.has(entry)) continue;
      const line = fresh.find((candidate) => candidate.bankTxId === entry.bankTxId && !taken.has(candidate) && pass(entry, candidate));
      if (!line) continue;
      taken.set(line, entry);
      paired.add(entry);
    }
  }

  const audits: AuditEntry[] = [];
  const now = deps.clock.now();
  for (const line of credits) {
    const before = answeredBy.get(keyOf(line));
    if (before) {
      answers.known += 1;
      answers.answered.set(line, { answer: 'known', bankTransferId: before.id });
      if (before.bankConfirmedAt && source.statementId)
        await deps.bankTransfers.confirmHandEntryByStatement(tx, before.id, source.statementId);
      continue;
    }
    const entry = taken.get(line);
    if (!entry) {
      answers.others.push(line);
      continue;
    }
    const bankLineKey = keyOf(line);
    const detail = {
      bankTxId: entry.bankTxId,
      bankLineKey,
      statementId: source.statementId,
      handAmount: entry.amount.toString(),
      bankAmount: line.amount.toString(),
    };
    if (agrees(entry, line)) {
      if (!(await deps.bankTransfers.answerHandEntry(tx, entry.id, { bankLineKey, statementId: source.statementId, confirmedAt: now }))) {
        throw new Error('a hand entry locked in this transaction changed under it');
      }
      answers.confirmed += 1;
      answers.answered.set(line, { answer: 'confirmed', bankTransferId: entry.id });
      audits.push({ actor, action: 'BANK_TRANSFER.BANK_CONFIRMED', entityType: 'bank_transfer', entityId: entry.id, metadata: detail });
    } else {
      const difference: BankLineDifference = {
        bankLineKey,
        bankAmount: line.amount.toString(),
        handAmount: entry.amount.toString(),
        bankBookedAt: line.bookedAt.toISOString(),
        handReceivedAt: entry.receivedAt.toISOString(),
        statementId: source.statementId,
        detectedAt: now.toISOString(),
      };
      if (!(await deps.bankTransfers.answerHandEntry(tx, entry.id, { bankLineKey, difference: { ...difference } }))) {
        throw new Error('a hand entry locked in this transaction changed under it');
      }
      answers.differences += 1;
      answers.answered.set(line, { answer: 'difference', bankTransferId: entry.id });
      audits.push({
        actor,
        action: 'BANK_TRANSFER.BANK_LINE_DIFFERENCE',
        entityType: 'bank_transfer',
        entityId: entry.id,
        metadata: { ...detail, bankBookedAt: difference.bankBookedAt, handReceivedAt: difference.handReceivedAt },
      });
    }
  }
  await writeAudits(tx, audits);
  return answers;
}
