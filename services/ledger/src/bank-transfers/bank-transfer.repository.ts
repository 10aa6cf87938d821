import type { BankTransfer, BankTransferStatus, Prisma, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { transferScopeWhere, type SiteScope } from '../operators/site-scope.js';

type Tx = Prisma.TransactionClient;

export interface NewBankTransfer {
  bankTxId: string;
  amount: bigint;
  currency: string;
  senderName: string;
  senderIban: string;
  description: string;
  receivedAt: Date;
  /** The account the money arrived on, when a statement delivered it; hand-recorded transfers have none. */
  receivingAccountId?: string | null;
  /** The imported statement the line came from. */
  statementId?: string | null;
  /** False for the sandbox simulator's money: it pays test deposits only (default true). */
  livemode?: boolean;
}

export class BankTransferRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Inserts the transfer as UNMATCHED unless its bankTxId is known on its receiving account (hand-recorded
   * transfers, with no account, share one namespace); returns its id, or null for a repeat. A concurrent
   * duplicate waits on the unique index until the first commits, then inserts nothing. A repeat that a statement
   * carries confirms a line the bank connector (or an operator) posted first: the known transfer takes the
   * statement's id, which is all that changes (reconciliation counts it as confirmed by the bank).
   */
  async insertUnlessKnown(tx: Tx, input: NewBankTransfer): Promise<string | null> {
    const rows = await tx.$queryRaw<Array<{ id: string; inserted: boolean }>>`
      INSERT INTO bank_transfers (id, bank_tx_id, amount, currency, sender_name, sender_iban, description, received_at, status,
        receiving_account_id, statement_id, created_at)
      VALUES (gen_random_uuid(), ${input.bankTxId}, ${input.amount}, ${input.currency}, ${input.senderName}, ${input.senderIban},
        ${input.description}, ${input.receivedAt}, 'UNMATCHED', ${input.receivingAccountId ?? null}::uuid, ${input.statementId ?? null}::uuid, now())
      ON CONFLICT (receiving_account_id, bank_tx_id) DO UPDATE SET statement_id = EXCLUDED.statement_id
        WHERE bank_transfers.statement_id IS NULL AND EXCLUDED.statement_id IS NOT NULL
      RETURNING id::text, (xmax = 0) AS inserted`;
    const [row] = rows;
    return row?.inserted ? row.id : null;
  }

  /**
   * {@link insertUnlessKnown} for many transfers in one statement (file order kept, so two racing imports queue on the
   * unique index in the same order): the ids of the ones inserted, by `bankTxId`. The caller passes each bankTxId of
   * an account once (a row cannot be inserted and updated by one statement).
   */
  async insertManyUnlessKnown(tx: Tx, inputs: readonly NewBankTransfer[]): Promise<Map<string, string>> {
    if (inputs.length === 0) return new Map();
    const rows = await tx.$queryRaw<Array<{ id: string; bankTxId: string; inserted: boolean }>>`
      INSERT INTO bank_transfers (id, bank_tx_id, amount, currency, sender_name, sender_iban, description, received_at, status,
        receiving_account_id, statement_id, livemode, created_at)
      SELECT gen_random_uuid(), l.bank_tx_id, l.amount, l.currency, l.sender_name, l.sender_iban, l.description, l.received_at,
        'UNMATCHED'::"BankTransferStatus", l.receiving_account_id, l.statement_id, l.livemode, now()
      FROM unnest(${inputs.map((t) => t.bankTxId)}::text[], ${inputs.map((t) => t.amount.toString())}::bigint[],
        ${inputs.map((t) => t.currency)}::text[], ${inputs.map((t) => t.senderName)}::text[], ${inputs.map((t) => t.senderIban)}::text[],
        ${inputs.map((t) => t.description)}::text[], ${inputs.map((t) => t.receivedAt.toISOString())}::timestamptz[],
        ${inputs.map((t) => t.receivingAccountId ?? null)}::uuid[], ${inputs.map((t) => t.statementId ?? null)}::uuid[],
        ${inputs.map((t) => t.livemode ?? true)}::boolean[])
        WITH ORDINALITY AS l(bank_tx_id, amount, currency, sender_name, sender_iban, description, received_at, receiving_account_id,
          statement_id, livemode, ord)
      ORDER BY l.ord
      ON CONFLICT (receiving_account_id, bank_tx_id) DO UPDATE SET statement_id = EXCLUDED.statement_id
        WHERE bank_transfers.statement_id IS NULL AND EXCLUDED.statement_id IS NOT NULL
      RETURNING id::text, bank_tx_id AS "bankTxId", (xmax = 0) AS inserted`;
    return new Map(rows.filter((row) => row.inserted).map((row) => [row.bankTxId, row.id]));
  }

  /** The transfer with this bank reference on the account (null: hand-recorded). */
  findByBankTxId(bankTxId: string, receivingAccountId: string | null = null): Promise<BankTransfer | null> {
    return this.db.bankTransfer.findFirst({ where: { bankTxId, receivingAccountId } });
  }

  findById(id: string): Promise<BankTransfer | null> {
    return this.db.bankTransfer.findUnique({ where: { id } });
  }

  async lock(tx: Tx, id: string): Promise<BankTransfer | null> {
    return (await lockRow(tx, 'bank_transfers', id)) ? tx.bankTransfer.findUnique({ where: { id } }) : null;
  }

  /** Settles the transfer's queue status; conditional on `from`, like every transition. */
  async settle(
    tx: Tx,
    id: string,
    from: BankTransferStatus,
    data: {
      status: BankTransferStatus;
      intentId?: string | null;
      unmatchedReason?: string | null;
      setAsideReason?: string | null;
      setAsideAt?: Date | null;
      matchReasons?: Prisma.InputJsonValue;
      suggestions?: Prisma.InputJsonValue;
    },
  ): Promise<BankTransfer | null> {
    const result = await tx.bankTransfer.updateMany({ where: { id, status: from }, data });
    return result.count === 1 ? tx.bankTransfer.findUnique({ where: { id } }) : null;
  }

  /**
   * Settles transfers this transaction inserted UNMATCHED a moment ago, in one statement ({@link settle}'s fields
   * for the matching's outcome); returns the settled rows in the order given, or null when any had moved.
   */
  async settleInserted(
    tx: Tx,
    settled: ReadonlyArray<{
      id: string;
      status: BankTransferStatus;
      intentId: string | null;
      unmatchedReason: string | null;
      matchReasons: Prisma.InputJsonValue;
      suggestions: Prisma.InputJsonValue;
    }>,
  ): Promise<BankTransfer[] | null> {
    if (settled.length === 0) return [];
    const ids = settled.map((s) => s.id);
    const count = await tx.$executeRaw`
      UPDATE bank_transfers t SET status = s.status::"BankTransferStatus", intent_id = s.intent_id, unmatched_reason = s.unmatched_reason,
        match_reasons = s.match_reasons, suggestions = s.suggestions
      FROM unnest(${ids}::uuid[], ${settled.map((s) => s.status)}::text[], ${settled.map((s) => s.intentId)}::uuid[],
        ${settled.map((s) => s.unmatchedReason)}::text[], ${settled.map((s) => JSON.stringify(s.matchReasons))}::jsonb[],
        ${settled.map((s) => JSON.stringify(s.suggestions))}::jsonb[])
        AS s(id, status, intent_id, unmatched_reason, match_reasons, suggestions)
      WHERE t.id = s.id AND t.status = 'UNMATCHED'`;
    if (count !== settled.length) return null;
    const rows = new Map((await tx.bankTransfer.findMany({ where: { id: { in: ids } } })).map((row) => [row.id, row]));
    return ids.map((id) => rows.get(id)).filter((row): row is BankTransfer => row !== undefined);
  }

  /** Transfers in the window's order; `livemode`: real money only (true) or the simulator's (false), both when absent. */
  /** A page of transfers; a scoped operator's only those credited to deposits of its sites (site-scope.ts). */
  list(
    statuses: BankTransferStatus[] | undefined,
    window: ListWindow,
    livemode: boolean | undefined,
    scope: SiteScope,
    /** The ops list's transaction (its statement timeout). */
    db: PrismaClient | Tx = this.db,
  ): Promise<BankTransfer[]> {
    return db.bankTransfer.findMany(
      keysetPage(
        {
          ...(statuses ? { status: { in: statuses } } : {}),
          ...(livemode !== undefined ? { livemode } : {}),
          ...transferScopeWhere(scope),
        },
        window,
      ),
    );
  }

  /**
   * The money that arrived for an intent: the sum of the transfers matched or assigned to it. Read inside
   * the transaction that holds the intent's row lock; every path that attaches a transfer takes that lock
   * first, so the sum cannot change before the caller commits.
   */
  async receivedFor(tx: Tx, intentId: string): Promise<bigint> {
    const rows = await tx.$queryRaw<Array<{ total: bigint }>>`
      SELECT COALESCE(SUM(amount), 0)::bigint AS total FROM bank_transfers
      WHERE intent_id = ${intentId}::uuid AND status IN ('MATCHED', 'ASSIGNED')`;
    return rows[0]?.total ?? 0n;
  }

  /** The transfers whose money an intent holds (MATCHED or ASSIGNED to it), latest received first, in the caller's transaction. */
  keptFor(tx: Tx, intentId: string): Promise<BankTransfer[]> {
    return tx.bankTransfer.findMany({
      where: { intentId, status: { in: ['MATCHED', 'ASSIGNED'] } },
      orderBy: [{ receivedAt: 'desc' }, { createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /** {@link receivedFor} of many intents at once (each locked by the caller); an intent no money reached is absent. */
  async receivedForMany(tx: Tx, intentIds: readonly string[]): Promise<Map<string, bigint>> {
    if (intentIds.length === 0) return new Map();
    const rows = await tx.$queryRaw<Array<{ intentId: string; total: bigint }>>`
      SELECT intent_id::text AS "intentId", COALESCE(SUM(amount), 0)::bigint AS total FROM bank_transfers
      WHERE intent_id = ANY(${[...intentIds]}::uuid[]) AND status IN ('MATCHED', 'ASSIGNED') GROUP BY intent_id`;
    return new Map(rows.map((row) => [row.intentId, BigInt(row.total)]));
  }

  listForDeposit(intentId: string): Promise<BankTransfer[]> {
    return this.db.bankTransfer.findMany({ where: { intentId }, orderBy: { receivedAt: 'asc' } });
  }
}
