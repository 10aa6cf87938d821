import { Prisma, type BankTransfer, type BankTransferStatus, type PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { columnsOf, lockRow } from '../shared/row-lock.repository.js';
import { transferScopeWhere, type SiteScope } from '../shared/site-scope.js';
import { transferLineKey } from './line-key.js';

type Tx = Prisma.TransactionClient;

export interface NewBankTransfer {
  bankTxId: string;
  amount: bigint;
  currency: string;
  senderName: string;
  senderIban: string;
  description: string;
  /** The declared purpose the bank file gave the line (docs/statements.md), if any. */
  purpose?: string | null;
  receivedAt: Date;
  /** False when the bank gave the booking date alone (`receivedAt` is midnight UTC of that day); default true. */
  receivedTimeKnown?: boolean;
  /** The account the money arrived on; none only for the sandbox simulator's money. */
  receivingAccountId?: string | null;
  /** The line's identity on the account (line-key.ts); by default the transfer's own, as the first of its batch. */
  lineKey?: string;
  /** Recorded by an operator: the bank's own line confirms it later instead of being recorded again. */
  handEntry?: boolean;
  /** The imported statement the line came from. */
  statementId?: string | null;
  /** False for the sandbox simulator's money: it pays test deposits only (default true). */
  livemode?: boolean;
}

/** A line's matching outcome as written: its queue status, the deposit it matched, and why (or why not). */
export interface SettledLine {
  id: string;
  status: BankTransferStatus;
  intentId: string | null;
  unmatchedReason: string | null;
  matchReasons: Prisma.InputJsonValue;
  suggestions: Prisma.InputJsonValue;
}

export class BankTransferRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Inserts each transfer as UNMATCHED unless its line key is known on its receiving account (line-key.ts); returns
   * the new row's id for each, in the order given, or null for a line the account already has. Inserted in the order
   * given, so two racing imports queue on the unique index in the same order; a concurrent duplicate waits until the
   * first commits, then inserts nothing. A known line that a statement carries confirms the line the bank connector
   * posted first: the known transfer takes the statement's id, which is all that changes (reconciliation counts it
   * as confirmed by the bank). The caller passes each line key of an account once.
   */
  async insertLinesUnlessKnown(tx: Tx, inputs: readonly NewBankTransfer[]): Promise<Array<string | null>> {
    if (inputs.length === 0) return [];
    const keys = inputs.map(transferLineKey);
    const rows = await tx.$queryRaw<Array<{ id: string; lineKey: string; inserted: boolean }>>`
      INSERT INTO bank_transfers (id, bank_tx_id, line_key, hand_entry, amount, currency, sender_name, sender_iban, description, received_at,
        received_time_known, status, receiving_account_id, statement_id, livemode, purpose, created_at)
      SELECT gen_random_uuid(), l.bank_tx_id, l.line_key, l.hand_entry, l.amount, l.currency, l.sender_name, l.sender_iban, l.description,
        l.received_at, l.received_time_known, 'UNMATCHED'::"BankTransferStatus", l.receiving_account_id, l.statement_id, l.livemode, l.purpose, now()
      FROM unnest(${inputs.map((t) => t.bankTxId)}::text[], ${keys}::text[], ${inputs.map((t) => t.handEntry ?? false)}::boolean[],
        ${inputs.map((t) => t.amount.toString())}::bigint[], ${inputs.map((t) => t.currency)}::text[], ${inputs.map((t) => t.senderName)}::text[],
        ${inputs.map((t) => t.senderIban)}::text[], ${inputs.map((t) => t.description)}::text[],
        ${inputs.map((t) => t.receivedAt.toISOString())}::timestamptz[], ${inputs.map((t) => t.receivedTimeKnown ?? true)}::boolean[],
        ${inputs.map((t) => t.receivingAccountId ?? null)}::uuid[],
        ${inputs.map((t) => t.statementId ?? null)}::uuid[], ${inputs.map((t) => t.livemode ?? true)}::boolean[],
        ${inputs.map((t) => t.purpose ?? null)}::text[])
        WITH ORDINALITY AS l(bank_tx_id, line_key, hand_entry, amount, currency, sender_name, sender_iban, description, received_at,
          received_time_known, receiving_account_id, statement_id, livemode, purpose, ord)
      ORDER BY l.ord
      ON CONFLICT (receiving_account_id, line_key) DO UPDATE SET statement_id = EXCLUDED.statement_id
        WHERE bank_transfers.statement_id IS NULL AND EXCLUDED.statement_id IS NOT NULL
      RETURNING id::text, line_key AS "lineKey", (xmax = 0) AS inserted`;
    // The key is unique within the call: it says which input a row is.
    const inserted = new Map(rows.filter((row) => row.inserted).map((row) => [row.lineKey, row.id]));
    return keys.map((key) => inserted.get(key) ?? null);
  }

  /** The transfers whose line key their receiving account already has (one indexed read; none without an account). */
  async knownLineKeys(tx: Tx, inputs: readonly NewBankTransfer[]): Promise<Set<NewBankTransfer>> {
    const onAccount = inputs.filter((t) => t.receivingAccountId);
    if (onAccount.length === 0) return new Set();
    const rows = await tx.$queryRaw<Array<{ accountId: string; lineKey: string }>>`
      SELECT receiving_account_id::text AS "accountId", line_key AS "lineKey" FROM bank_transfers
      WHERE (receiving_account_id, line_key) IN (
        SELECT * FROM unnest(${onAccount.map((t) => t.receivingAccountId)}::uuid[], ${onAccount.map(transferLineKey)}::text[]))`;
    const known = new Set(rows.map((row) => `${row.accountId} ${row.lineKey}`));
    return new Set(onAccount.filter((t) => known.has(`${t.receivingAccountId} ${transferLineKey(t)}`)));
  }

  /**
   * Known lines that a statement carries confirm the lines the bank connector posted first: each takes the statement's
   * id, which is all that changes (reconciliation counts it as confirmed by the bank); a line already in a statement keeps its own.
   */
  async confirmKnownByStatement(tx: Tx, known: readonly NewBankTransfer[]): Promise<void> {
    const carried = known.filter((t) => t.receivingAccountId && t.statementId);
    if (carried.length === 0) return;
    await tx.$executeRaw`
      UPDATE bank_transfers t SET statement_id = k.statement_id
      FROM unnest(${carried.map((t) => t.receivingAccountId)}::uuid[], ${carried.map(transferLineKey)}::text[],
        ${carried.map((t) => t.statementId)}::uuid[]) AS k(receiving_account_id, line_key, statement_id)
      WHERE t.receiving_account_id = k.receiving_account_id AND t.line_key = k.line_key AND t.statement_id IS NULL`;
  }

  /**
   * Inserts transfers already decided (their ids, queue status and matching's outcome chosen beforehand), each row
   * written once, in the order given; returns the rows in that order. Null, and nothing of the call left, when any line
   * key turned out known on its account (another batch recorded it since it was read, and the unique index made this
   * insert wait for it): the caller then records the transfers by inserting first ({@link insertLinesUnlessKnown}).
   */
  async insertDecided(tx: Tx, rows: ReadonlyArray<SettledLine & { transfer: NewBankTransfer }>): Promise<BankTransfer[] | null> {
    if (rows.length === 0) return [];
    const inputs = rows.map((row) => row.transfer);
    const ids = rows.map((row) => row.id);
    // The rows come back from the insert itself, as Prisma reads them: no second read of what was just written.
    const inserted = await tx.$queryRaw<BankTransfer[]>`
      INSERT INTO bank_transfers (id, bank_tx_id, line_key, hand_entry, amount, currency, sender_name, sender_iban, description, received_at,
        received_time_known, status, intent_id, unmatched_reason, match_reasons, suggestions, receiving_account_id, statement_id, livemode,
        purpose, created_at)
      SELECT l.id, l.bank_tx_id, l.line_key, l.hand_entry, l.amount, l.currency, l.sender_name, l.sender_iban, l.description,
        l.received_at, l.received_time_known, l.status::"BankTransferStatus", l.intent_id, l.unmatched_reason, l.match_reasons,
        l.suggestions, l.receiving_account_id, l.statement_id, l.livemode, l.purpose, now()
      FROM unnest(${ids}::uuid[], ${inputs.map((t) => t.bankTxId)}::text[], ${inputs.map(transferLineKey)}::text[],
        ${inputs.map((t) => t.handEntry ?? false)}::boolean[], ${inputs.map((t) => t.amount.toString())}::bigint[],
        ${inputs.map((t) => t.currency)}::text[], ${inputs.map((t) => t.senderName)}::text[], ${inputs.map((t) => t.senderIban)}::text[],
        ${inputs.map((t) => t.description)}::text[], ${inputs.map((t) => t.receivedAt.toISOString())}::timestamptz[],
        ${inputs.map((t) => t.receivedTimeKnown ?? true)}::boolean[], ${rows.map((r) => r.status)}::text[],
        ${rows.map((r) => r.intentId)}::uuid[], ${rows.map((r) => r.unmatchedReason)}::text[],
        ${rows.map((r) => JSON.stringify(r.matchReasons))}::jsonb[], ${rows.map((r) => JSON.stringify(r.suggestions))}::jsonb[],
        ${inputs.map((t) => t.receivingAccountId ?? null)}::uuid[], ${inputs.map((t) => t.statementId ?? null)}::uuid[],
        ${inputs.map((t) => t.livemode ?? true)}::boolean[], ${inputs.map((t) => t.purpose ?? null)}::text[])
        WITH ORDINALITY AS l(id, bank_tx_id, line_key, hand_entry, amount, currency, sender_name, sender_iban, description, received_at,
          received_time_known, status, intent_id, unmatched_reason, match_reasons, suggestions, receiving_account_id, statement_id,
          livemode, purpose, ord)
      ORDER BY l.ord
      ON CONFLICT (receiving_account_id, line_key) DO NOTHING
      RETURNING ${columnsOf(Prisma.BankTransferScalarFieldEnum, ['status'])}`;
    if (inserted.length !== rows.length) {
      // Rows this transaction wrote a moment ago, seen by nobody else: undone, as if never written.
      await tx.$executeRaw`DELETE FROM bank_transfers WHERE id = ANY(${inserted.map((row) => row.id)}::uuid[])`;
      return null;
    }
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id)).filter((row): row is BankTransfer => row !== undefined);
  }

  /**
   * Serialises what decides whether a line of this account is new: each batch of bank lines takes the account's lock
   * shared (batches do not wait on each other), an operator's hand entry takes it alone, so a hand entry and the
   * bank's own line arriving at the same moment are decided one after the other, never both as new.
   */
  async lockAccountLines(tx: Tx, receivingAccountId: string, mode: 'shared' | 'exclusive'): Promise<void> {
    const key = `bank-lines:${receivingAccountId}`;
    if (mode === 'shared') await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`;
    else await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
  }

  /** The account's hand entries with these references, locked (in id order) for the bank's lines to confirm. */
  async lockHandEntries(tx: Tx, receivingAccountId: string, bankTxIds: readonly string[]): Promise<BankTransfer[]> {
    if (bankTxIds.length === 0) return [];
    const ids = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM bank_transfers
      WHERE receiving_account_id = ${receivingAccountId}::uuid AND hand_entry AND bank_tx_id = ANY(${[...new Set(bankTxIds)]}::text[])
      ORDER BY id FOR UPDATE`;
    if (ids.length === 0) return [];
    return tx.bankTransfer.findMany({ where: { id: { in: ids.map((row) => row.id) } }, orderBy: { id: 'asc' } });
  }

  /**
   * Records the bank's line that answered a hand entry not answered before: `confirmedAt` when it agreed (its statement,
   * if any, then confirms the hand entry for reconciliation), `difference` when it did not. False when it was answered meanwhile.
   */
  async answerHandEntry(
    tx: Tx,
    id: string,
    answer:
      { bankLineKey: string; statementId: string | null; confirmedAt: Date } | { bankLineKey: string; difference: Prisma.InputJsonValue },
  ): Promise<boolean> {
    const data =
      'confirmedAt' in answer
        ? { bankLineKey: answer.bankLineKey, bankConfirmedAt: answer.confirmedAt, statementId: answer.statementId }
        : { bankLineKey: answer.bankLineKey, bankLineDifference: answer.difference };
    const result = await tx.bankTransfer.updateMany({ where: { id, handEntry: true, bankLineKey: null }, data });
    return result.count === 1;
  }

  /** A confirmed hand entry's line, carried again by a statement: the hand entry takes the statement's id (once). */
  async confirmHandEntryByStatement(tx: Tx, id: string, statementId: string): Promise<void> {
    await tx.bankTransfer.updateMany({ where: { id, bankConfirmedAt: { not: null }, statementId: null }, data: { statementId } });
  }

  /** The first transfer recorded on the account with this bank reference, hand entry or bank line (null account: legacy hand entries). */
  findOnAccount(bankTxId: string, receivingAccountId: string | null, db: PrismaClient | Tx = this.db): Promise<BankTransfer | null> {
    return db.bankTransfer.findFirst({
      where: { bankTxId, receivingAccountId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  findById(id: string): Promise<BankTransfer | null> {
    return this.db.bankTransfer.findUnique({ where: { id } });
  }

  /**
   * The site of the deposit the transfer is credited to, for the operator-scope guard; null when there is no such
   * transfer, or when it is credited to no deposit (unmatched, set aside: the house's).
   */
  async siteOfRecord(id: string): Promise<string | null> {
    const transfer = await this.db.bankTransfer.findUnique({ where: { id }, select: { intent: { select: { siteId: true } } } });
    return transfer?.intent?.siteId ?? null;
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
    // Money newly credited to a deposit (an assignment, a top-up) is for the risk worker to evaluate again, in this commit.
    const result = await tx.bankTransfer.updateMany({
      where: { id, status: from },
      data: data.intentId ? { ...data, riskCheckedAt: null } : data,
    });
    return result.count === 1 ? tx.bankTransfer.findUnique({ where: { id } }) : null;
  }

  /**
   * Settles transfers this transaction inserted UNMATCHED a moment ago, in one statement ({@link settle}'s fields
   * for the matching's outcome); returns the settled rows in the order given, or null when any had moved.
   */
  async settleInserted(tx: Tx, settled: readonly SettledLine[]): Promise<BankTransfer[] | null> {
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
    /** Only lines whose bank file declared this purpose (docs/statements.md). */
    purpose?: string,
  ): Promise<BankTransfer[]> {
    return db.bankTransfer.findMany(
      keysetPage(
        {
          ...(statuses ? { status: { in: statuses } } : {}),
          ...(livemode !== undefined ? { livemode } : {}),
          ...(purpose !== undefined ? { purpose } : {}),
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
