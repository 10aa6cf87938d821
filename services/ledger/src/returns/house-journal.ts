import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient } from '@kasa/db';

type Tx = Prisma.TransactionClient;

/**
 * The house journal: money in the service's bank that no site owns, booked like a site's (positive debit,
 * negative credit, each transaction summing to zero). Today it holds the returns to senders:
 *
 * - `bank_clearing` (asset): money in our bank that is now owed back to a sender;
 * - `sender_refunds_payable` (liability): owed to senders, approved and not sent yet;
 * - `refunds_settled` (asset, credit side): sent back.
 */
export const HOUSE_ACCOUNTS = ['bank_clearing', 'sender_refunds_payable', 'refunds_settled'] as const;
export type HouseAccount = (typeof HOUSE_ACCOUNTS)[number];

const ENTITY = 'sender_return';

function legs(debit: HouseAccount, credit: HouseAccount, amount: bigint) {
  if (amount <= 0n) throw new RangeError('a journal amount must be positive');
  return [
    { account: debit, amount },
    { account: credit, amount: -amount },
  ];
}

/** The postings of a return to its sender (docs/operations.md, Returns to senders). */
export const HousePostings = {
  /** Approved: the money in our bank is owed back to the sender. */
  returnApproved: (amount: bigint) => legs('bank_clearing', 'sender_refunds_payable', amount),
  /** Rejected after approval: no longer owed back. */
  returnWithdrawn: (amount: bigint) => legs('sender_refunds_payable', 'bank_clearing', amount),
  /** Sent: the money left the bank. */
  returnSent: (amount: bigint) => legs('sender_refunds_payable', 'refunds_settled', amount),
};

export class HouseJournal {
  constructor(private readonly db: PrismaClient) {}

  /** Writes one balanced transaction about a return, in the caller's transaction. */
  async post(tx: Tx, returnId: string, entries: Array<{ account: HouseAccount; amount: bigint }>): Promise<string> {
    if (entries.reduce((sum, leg) => sum + leg.amount, 0n) !== 0n) throw new Error('house journal transaction does not balance');
    const transactionId = randomUUID();
    await tx.houseJournalEntry.createMany({
      data: entries.map((leg) => ({ transactionId, account: leg.account, amount: leg.amount, entityType: ENTITY, entityId: returnId })),
    });
    return transactionId;
  }

  entriesOf(returnId: string) {
    return this.db.houseJournalEntry.findMany({
      where: { entityType: ENTITY, entityId: returnId },
      orderBy: [{ createdAt: 'asc' }, { account: 'asc' }],
    });
  }

  /** Problems of the house journal, in the journal check's terms: unbalanced, impossible, or not what the returns imply. */
  async problems(): Promise<Array<{ kind: string; detail: Record<string, string> }>> {
    const [unbalanced, balances, expected, unbacked] = await Promise.all([
      this.db.$queryRaw<Array<{ transactionId: string; sum: bigint }>>`
        SELECT transaction_id::text AS "transactionId", SUM(amount)::bigint AS sum
        FROM house_journal_entries GROUP BY transaction_id HAVING SUM(amount) <> 0`,
      this.db.$queryRaw<Array<{ account: string; balance: bigint }>>`
        SELECT account, SUM(amount)::bigint AS balance FROM house_journal_entries GROUP BY account`,
      this.db.$queryRaw<Array<{ approved: bigint; sent: bigint }>>`
        SELECT COALESCE(SUM(amount) FILTER (WHERE status = 'APPROVED'), 0)::bigint AS approved,
               COALESCE(SUM(amount) FILTER (WHERE status = 'SENT'), 0)::bigint AS sent
        FROM sender_returns`,
      // A return must give back exactly one transfer's money, and money no deposit kept.
      this.db.$queryRaw<Array<{ returnId: string; amount: bigint; transferAmount: bigint; intentStatus: string | null }>>`
        SELECT r.id::text AS "returnId", r.amount, t.amount AS "transferAmount", d.status::text AS "intentStatus"
        FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
        LEFT JOIN deposit_intents d ON d.id = t.intent_id
        WHERE r.status <> 'REJECTED' AND (r.amount <> t.amount OR (d.id IS NOT NULL AND d.status <> 'REJECTED'))`,
    ]);
    const balance = (account: HouseAccount) => balances.find((row) => row.account === account)?.balance ?? 0n;
    const { approved, sent } = expected[0] ?? { approved: 0n, sent: 0n };
    const problems: Array<{ kind: string; detail: Record<string, string> }> = [];
    for (const row of unbalanced)
      problems.push({
        kind: 'unbalanced_transaction',
        detail: { journal: 'house', transactionId: row.transactionId, sum: String(row.sum) },
      });
    for (const row of balances) {
      if (!(HOUSE_ACCOUNTS as readonly string[]).includes(row.account)) {
        problems.push({ kind: 'impossible_balance', detail: { journal: 'house', account: row.account, balance: String(row.balance) } });
      }
    }
    const mismatch = (account: HouseAccount, journal: bigint, records: bigint) => {
      if (journal !== records)
        problems.push({
          kind: 'record_mismatch',
          detail: { journal: 'house', account, balance: String(journal), records: String(records) },
        });
    };
    mismatch('bank_clearing', balance('bank_clearing'), approved + sent);
    mismatch('sender_refunds_payable', balance('sender_refunds_payable'), -approved);
    mismatch('refunds_settled', balance('refunds_settled'), -sent);
    for (const row of unbacked) {
      problems.push({
        kind: 'unbacked_credit',
        detail: {
          journal: 'house',
          returnId: row.returnId,
          amount: String(row.amount),
          transferAmount: String(row.transferAmount),
          intentStatus: String(row.intentStatus),
        },
      });
    }
    return problems;
  }
}
