import type { Prisma } from '@kasa/db';
import { normalizeIban, RETURN_REASON_CODES, type ReturnReasonCode } from '@kasa/contracts';
import type { Logger } from '@kasa/logger';
import type { StatementLine } from '@kasa/statements';
import { writeAudits, type Actor } from '../shared/audit.repository.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';
import type { LineSource } from './record-lines.js';
import { isPayoutReference, type PayoutBatchRepository, type NamedPayout } from '../payouts/payout-batch.repository.js';

type Tx = Prisma.TransactionClient;

const RULE = 'payout_statement';

/** A batched payout a new debit line shows leaving the bank: marked SENT by a follow-up once the lines commit. */
export interface PayoutSent {
  kind: 'withdrawal' | 'sender_return';
  id: string;
  batchId: string;
  bankTxId: string;
  /** The debit line's identity on its account (the follow-up's line). */
  lineKey: string;
}

/** A sent withdrawal a new credit line shows coming back: marked RETURNED by a follow-up once the lines commit. */
export interface PayoutReturned {
  withdrawalId: string;
  /** The credit line's identity on its account (the follow-up's line). */
  lineKey: string;
  batchId: string;
  bankTxId: string;
  bankTransferId: string;
  code: ReturnReasonCode | null;
  reason: string;
}

export interface PayoutTally {
  sent: PayoutSent[];
  returned: PayoutReturned[];
}

export interface PayoutLineDeps {
  payoutBatches: PayoutBatchRepository;
  bankTransfers: BankTransferRepository;
  logger: Logger;
}

/**
 * The references a line may carry: its EndToEndId and each word of its remittance text shaped like a payout's reference
 * (references are alphanumeric).
 */
function referencesOf(line: Pick<StatementLine, 'endToEndId' | 'description'>): string[] {
  const words = line.description
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => isPayoutReference(word));
  return [...(line.endToEndId ? [line.endToEndId.trim().toUpperCase()] : []), ...words];
}

/**
 * Whether the line is the payout's own bank line, not merely one naming it: live money, booked on the account its batch
 * pays from, for exactly its amount, and either carrying its reference as the EndToEndId (the bank copies the file's
 * id onto the debit and onto a return) or with the payout's creditor as the counterparty (the payee of the debit, the
 * sender of the return). Anyone can type a reference into remittance text; only the payout's own lines confirm it.
 */
function isOwnLine(line: StatementLine, payout: NamedPayout, source: Pick<LineSource, 'receivingAccountId'>): boolean {
  if (!payout.livemode || payout.receivingAccountId !== source.receivingAccountId || payout.item.amount !== line.amount) return false;
  if (line.endToEndId?.trim().toUpperCase() === payout.item.reference.toUpperCase()) return true;
  return line.counterpartyIban !== null && normalizeIban(line.counterpartyIban) === normalizeIban(payout.item.creditorIban);
}

/** The batched payout whose own line this is (see {@link isOwnLine}), if any; another line naming one is an operator's. */
function payoutOf(line: StatementLine, named: ReadonlyMap<string, NamedPayout>, source: LineSource): NamedPayout | null {
  for (const reference of referencesOf(line)) {
    const payout = named.get(reference);
    if (payout && isOwnLine(line, payout, source)) return payout;
  }
  return null;
}

async function namedBy(deps: PayoutLineDeps, tx: Tx, lines: readonly StatementLine[]): Promise<Map<string, NamedPayout>> {
  const found = await deps.payoutBatches.named(tx, lines.flatMap(referencesOf));
  return new Map(found.map((payout) => [payout.item.reference.toUpperCase(), payout]));
}

/**
 * The new debit lines of `source`'s account (inserted now, so a statement imported again finds none) that pay a batched
 * payout still APPROVED: the payout's own line (its batch's paying account, its EndToEndId or its creditor's IBAN,
 * exactly its amount), each payout once, to be marked SENT by a follow-up once committed. A reversal is never a payout leaving; any other
 * debit stays a kept debit, and an operator may still mark the payout sent by hand.
 */
export async function sentPayouts(
  deps: PayoutLineDeps,
  tx: Tx,
  source: LineSource,
  debits: readonly StatementLine[],
  keyOf: (line: StatementLine) => string,
  tally: PayoutTally,
): Promise<void> {
  const lines = debits.filter((line) => !line.reversal);
  const named = await namedBy(deps, tx, lines);
  const taken = new Set(tally.sent.map((sent) => sent.id));
  for (const line of lines) {
    const payout = payoutOf(line, named, source);
    const id = payout?.item.withdrawalId ?? payout?.item.senderReturnId;
    if (!payout || !id || payout.status !== 'APPROVED' || taken.has(id)) continue;
    taken.add(id);
    tally.sent.push({
      kind: payout.item.withdrawalId ? 'withdrawal' : 'sender_return',
      id,
      batchId: payout.item.batchId,
      bankTxId: line.bankTxId,
      lineKey: keyOf(line),
    });
  }
}

/** The ISO code of a line's return reason when Kasa knows it (the partner's `returnReason.code`), else null. */
function codeOf(reason: string | null): ReturnReasonCode | null {
  return reason && Object.prototype.hasOwnProperty.call(RETURN_REASON_CODES, reason) ? (reason as ReturnReasonCode) : null;
}

/**
 * Splits off the credit lines of `source`'s account that bring a sent withdrawal back: the withdrawal's own line (its
 * batch's paying account, exactly its amount, carrying its EndToEndId or coming from its beneficiary's IBAN and naming
 * its reference), the withdrawal SENT or marked sent by a line before. Each is recorded as a transfer PAYOUT_RETURNED,
 * in no queue (the withdrawal's return accounts for the money), audited, and the withdrawal is marked RETURNED after
 * commit with the bank's reason code. A line known before changes nothing. Returns the other credits for the deposits:
 * a stranger's credit naming a withdrawal's reference is incoming money like any other, never a return.
 */
export async function splitPayoutReturns(
  deps: PayoutLineDeps,
  tx: Tx,
  actor: Actor,
  source: LineSource,
  credits: readonly StatementLine[],
  toTransfer: (line: StatementLine) => NewBankTransfer,
  tally: PayoutTally,
): Promise<{ others: StatementLine[]; created: number; duplicates: number }> {
  const named = await namedBy(deps, tx, credits);
  const sentNow = new Set(tally.sent.map((sent) => sent.id));
  const taken = new Set(tally.returned.map((returned) => returned.withdrawalId));
  const returns: Array<{ line: StatementLine; payout: NamedPayout; withdrawalId: string }> = [];
  const others: StatementLine[] = [];
  for (const line of credits) {
    const payout = payoutOf(line, named, source);
    const withdrawalId = payout?.item.withdrawalId;
    if (payout && withdrawalId && (payout.status === 'SENT' || sentNow.has(withdrawalId)) && !taken.has(withdrawalId)) {
      taken.add(withdrawalId);
      returns.push({ line, payout, withdrawalId });
    } else {
      others.push(line);
    }
  }
  if (returns.length === 0) return { others, created: 0, duplicates: 0 };
  // Answered line by line (not by bankTxId): two returns the bank booked under one reference are two lines.
  const ids = await deps.bankTransfers.insertLinesUnlessKnown(
    tx,
    returns.map(({ line }) => toTransfer(line)),
  );
  const audits = [];
  for (const [index, { line, payout, withdrawalId }] of returns.entries()) {
    const bankTransferId = ids[index];
    if (!bankTransferId) continue;
    await deps.bankTransfers.settle(tx, bankTransferId, 'UNMATCHED', { status: 'PAYOUT_RETURNED', unmatchedReason: 'payout_returned' });
    const code = codeOf(line.returnReason);
    const reason = code
      ? `Returned by the bank: ${RETURN_REASON_CODES[code]} (${code}), line ${line.bankTxId}`
      : `Returned by the bank${line.returnReason ? ` (reason ${line.returnReason})` : ''}, line ${line.bankTxId}`;
    const lineKey = toTransfer(line).lineKey ?? '';
    tally.returned.push({ withdrawalId, lineKey, batchId: payout.item.batchId, bankTxId: line.bankTxId, bankTransferId, code, reason });
    audits.push({
      actor,
      action: 'BANK_TRANSFER.RECORDED',
      entityType: 'bank_transfer',
      entityId: bankTransferId,
      metadata: { bankTxId: line.bankTxId, amount: line.amount.toString(), to: 'PAYOUT_RETURNED', withdrawalId, rule: RULE },
    });
  }
  await writeAudits(tx, audits);
  return { others, created: audits.length, duplicates: returns.length - audits.length };
}
