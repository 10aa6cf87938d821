import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient, SenderReturn, SenderReturnStatus } from '@kasa/db';
import type { JournalProblem } from '../journal/check-journal.use-case.js';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { HOUSE_ACCOUNTS, type HouseAccount, type HouseLeg } from './house-accounts.js';
import { senderReturnScopeWhere, type SiteScope } from '../operators/site-scope.js';

type Tx = Prisma.TransactionClient;

const ENTITY = 'sender_return';

/** A return as it is asked for: the transfer's whole amount back to its sender, or (with `intentId`) a partial approval's remainder. */
export type NewSenderReturn = Pick<
  SenderReturn,
  'bankTransferId' | 'amount' | 'currency' | 'senderName' | 'senderIban' | 'reason' | 'transferStatusBefore' | 'requestedBy'
> &
  Partial<Pick<SenderReturn, 'intentId'>>;

/**
 * Returns to senders and their house journal (house-accounts.ts): the rows a return's review locks and
 * changes, the operators' list, and the house journal's postings and checks.
 */
export class SenderReturnRepository {
  constructor(private readonly db: PrismaClient) {}

  create(tx: Tx, data: NewSenderReturn): Promise<SenderReturn> {
    return tx.senderReturn.create({ data });
  }

  async lock(tx: Tx, id: string): Promise<SenderReturn | null> {
    return (await lockRow(tx, 'sender_returns', id)) ? tx.senderReturn.findUnique({ where: { id } }) : null;
  }

  /** The return's conditional write: null when it is no longer in `from` (never after a lock, but checked). */
  async update(
    tx: Tx,
    id: string,
    from: SenderReturnStatus,
    data: Prisma.SenderReturnUpdateManyMutationInput,
  ): Promise<SenderReturn | null> {
    const result = await tx.senderReturn.updateMany({ where: { id, status: from }, data });
    return result.count === 1 ? tx.senderReturn.findUnique({ where: { id } }) : null;
  }

  /** The site each return's money belongs to (its deposit's, named by the return or its transfer); null: a house return. */
  async sitesOf(ids: string[], db: PrismaClient | Tx = this.db): Promise<Map<string, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await db.$queryRaw<{ id: string; site_id: string | null }[]>`
      SELECT r.id, d.site_id
      FROM sender_returns r
      JOIN bank_transfers t ON t.id = r.bank_transfer_id
      LEFT JOIN deposit_intents d ON d.id = COALESCE(r.intent_id, t.intent_id)
      WHERE r.id = ANY(${ids}::uuid[])`;
    return new Map(rows.map((row) => [row.id, row.site_id]));
  }

  find(id: string): Promise<SenderReturn | null> {
    return this.db.senderReturn.findUnique({ where: { id } });
  }

  /** A page of returns; `db`: the ops list's transaction (its statement timeout). */
  list(
    statuses: SenderReturnStatus[] | undefined,
    window: ListWindow,
    scope: SiteScope,
    db: PrismaClient | Tx = this.db,
  ): Promise<SenderReturn[]> {
    return db.senderReturn.findMany(
      keysetPage({ ...(statuses ? { status: { in: statuses } } : {}), ...senderReturnScopeWhere(scope) }, window),
    );
  }

  /** Writes one balanced house journal transaction about a return, in the caller's transaction. */
  async postHouse(tx: Tx, returnId: string, entries: HouseLeg[]): Promise<string> {
    if (entries.reduce((sum, leg) => sum + leg.amount, 0n) !== 0n) throw new Error('house journal transaction does not balance');
    const transactionId = randomUUID();
    await tx.houseJournalEntry.createMany({
      data: entries.map((leg) => ({ transactionId, account: leg.account, amount: leg.amount, entityType: ENTITY, entityId: returnId })),
    });
    return transactionId;
  }

  houseEntriesOf(returnId: string) {
    return this.db.houseJournalEntry.findMany({
      where: { entityType: ENTITY, entityId: returnId },
      orderBy: [{ createdAt: 'asc' }, { account: 'asc' }],
    });
  }

  /** Problems of the house journal, in the journal check's terms: unbalanced, impossible, or not what the returns imply. */
  async houseProblems(): Promise<JournalProblem[]> {
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
      // A return must give back exactly one transfer's money, and money no deposit kept; a remainder's return
      // (intent_id set) is part of a transfer, proven by the journal check's `unaccounted_money` instead.
      this.db.$queryRaw<Array<{ returnId: string; amount: bigint; transferAmount: bigint; intentStatus: string | null }>>`
        SELECT r.id::text AS "returnId", r.amount, t.amount AS "transferAmount", d.status::text AS "intentStatus"
        FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
        LEFT JOIN deposit_intents d ON d.id = t.intent_id
        WHERE r.status <> 'REJECTED' AND r.intent_id IS NULL
          AND (r.amount <> t.amount OR (d.id IS NOT NULL AND d.status <> 'REJECTED'))`,
    ]);
    const balance = (account: HouseAccount) => balances.find((row) => row.account === account)?.balance ?? 0n;
    const { approved, sent } = expected[0] ?? { approved: 0n, sent: 0n };
    const problems: JournalProblem[] = [];
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
