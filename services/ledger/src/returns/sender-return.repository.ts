import { randomUUID } from 'node:crypto';
import type { Prisma, PrismaClient, SenderReturn, SenderReturnStatus } from '@kasa/db';
import type { JournalProblem } from '../journal/journal-problem.js';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { HOUSE_ACCOUNTS, type HouseAccount, type HouseLeg } from './house-accounts.js';
import { senderReturnScopeWhere, type SiteScope } from '../shared/site-scope.js';

type Tx = Prisma.TransactionClient;

const ENTITY = 'sender_return';

/**
 * A return as it is asked for: the transfer's whole amount back to its sender, or (with `intentId`) a partial approval's
 * remainder; `livemode` is its transfer's. A sandbox return is written played out (`status` SENT with its times).
 */
export type NewSenderReturn = Pick<
  SenderReturn,
  'bankTransferId' | 'amount' | 'currency' | 'senderName' | 'senderIban' | 'reason' | 'transferStatusBefore' | 'requestedBy' | 'livemode'
> &
  Partial<Pick<SenderReturn, 'intentId' | 'status' | 'approvedAt' | 'sentAt' | 'sentBankTxId'>>;

/** Which returns a list or a count reads: the live ones (real money, the operators' work) or the sandboxes'. */
export type MoneyMode = 'live' | 'test';

/** The one condition of a mode on sender_returns, for every read of a queue (the ops list, the dashboard). */
export function returnModeWhere(mode: MoneyMode): { livemode: boolean } {
  return { livemode: mode === 'live' };
}

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

  /**
   * The site the return belongs to, for the operator-scope guard: its deposit's, else its transfer's deposit's; null when
   * there is no such return, or when it returns a transfer credited to no deposit (the house's).
   */
  async siteOfRecord(id: string): Promise<string | null> {
    const row = await this.db.senderReturn.findUnique({
      where: { id },
      select: { intent: { select: { siteId: true } }, bankTransfer: { select: { intent: { select: { siteId: true } } } } },
    });
    return row?.intent?.siteId ?? row?.bankTransfer.intent?.siteId ?? null;
  }

  find(id: string): Promise<SenderReturn | null> {
    return this.db.senderReturn.findUnique({ where: { id } });
  }

  /** A page of returns of one mode (live: the operators' queue); `db`: the ops list's transaction (its statement timeout). */
  list(
    statuses: SenderReturnStatus[] | undefined,
    window: ListWindow,
    scope: SiteScope,
    mode: MoneyMode,
    db: PrismaClient | Tx = this.db,
  ): Promise<SenderReturn[]> {
    return db.senderReturn.findMany(
      keysetPage({ ...(statuses ? { status: { in: statuses } } : {}), ...returnModeWhere(mode), ...senderReturnScopeWhere(scope) }, window),
    );
  }

  /**
   * Writes one balanced house journal transaction about a return, in the caller's transaction, in the return's mode:
   * a sandbox return's postings never count in the live house balances.
   */
  async postHouse(tx: Tx, senderReturn: Pick<SenderReturn, 'id' | 'livemode'>, entries: HouseLeg[]): Promise<string> {
    if (entries.reduce((sum, leg) => sum + leg.amount, 0n) !== 0n) throw new Error('house journal transaction does not balance');
    const transactionId = randomUUID();
    await tx.houseJournalEntry.createMany({
      data: entries.map((leg) => ({
        transactionId,
        account: leg.account,
        amount: leg.amount,
        entityType: ENTITY,
        entityId: senderReturn.id,
        livemode: senderReturn.livemode,
      })),
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
      // Per mode: the live house balances are the live postings only, the sandboxes' are checked on their own.
      this.db.$queryRaw<Array<{ livemode: boolean; account: string; balance: bigint }>>`
        SELECT livemode, account, SUM(amount)::bigint AS balance FROM house_journal_entries GROUP BY livemode, account`,
      this.db.$queryRaw<Array<{ livemode: boolean; approved: bigint; sent: bigint }>>`
        SELECT m.livemode, COALESCE(SUM(r.amount) FILTER (WHERE r.status = 'APPROVED'), 0)::bigint AS approved,
               COALESCE(SUM(r.amount) FILTER (WHERE r.status = 'SENT'), 0)::bigint AS sent
        FROM (VALUES (true), (false)) AS m(livemode) LEFT JOIN sender_returns r ON r.livemode = m.livemode
        GROUP BY m.livemode`,
      // A return must give back exactly one transfer's money, and money no deposit kept; a remainder's return
      // (intent_id set) is part of a transfer, proven by the journal check's `unaccounted_money` instead.
      this.db.$queryRaw<Array<{ returnId: string; amount: bigint; transferAmount: bigint; intentStatus: string | null }>>`
        SELECT r.id::text AS "returnId", r.amount, t.amount AS "transferAmount", d.status::text AS "intentStatus"
        FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
        LEFT JOIN deposit_intents d ON d.id = t.intent_id
        WHERE r.status <> 'REJECTED' AND r.intent_id IS NULL
          AND (r.amount <> t.amount OR (d.id IS NOT NULL AND d.status <> 'REJECTED'))`,
    ]);
    const problems: JournalProblem[] = [];
    for (const row of unbalanced)
      problems.push({
        kind: 'unbalanced_transaction',
        detail: { journal: 'house', transactionId: row.transactionId, sum: String(row.sum) },
      });
    // A sandbox's problem says `mode: test`; a live one reads as it always did.
    const modeOf = (livemode: boolean): Record<string, string> => (livemode ? {} : { mode: 'test' });
    for (const row of balances) {
      if (!(HOUSE_ACCOUNTS as readonly string[]).includes(row.account)) {
        problems.push({
          kind: 'impossible_balance',
          detail: { journal: 'house', ...modeOf(row.livemode), account: row.account, balance: String(row.balance) },
        });
      }
    }
    for (const { livemode, approved, sent } of expected) {
      const balance = (account: HouseAccount) =>
        balances.find((row) => row.livemode === livemode && row.account === account)?.balance ?? 0n;
      const mismatch = (account: HouseAccount, records: bigint) => {
        if (balance(account) !== records)
          problems.push({
            kind: 'record_mismatch',
            detail: { journal: 'house', ...modeOf(livemode), account, balance: String(balance(account)), records: String(records) },
          });
      };
      mismatch('bank_clearing', approved + sent);
      mismatch('sender_refunds_payable', -approved);
      mismatch('refunds_settled', -sent);
    }
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
