import { Prisma, type PrismaClient } from '@kasa/db';

/** One imported statement of an account, with the booking times of its first and last line. */
export interface StatementRow {
  id: string;
  statementRef: string;
  openingBalance: bigint;
  closingBalance: bigint;
  periodFrom: Date | null;
  periodTo: Date | null;
  /** False when the period is dates alone (MT940): its ends name Istanbul days. */
  periodTimeKnown: boolean;
  importedAt: Date;
  /** The first and last instants its lines can be on: a line with its date alone spans its whole Istanbul day. */
  firstLineAt: Date | null;
  lastLineAt: Date | null;
}

/** What Kasa recorded on an account: the lines statements carry (all of them), and the others inside the window. */
export interface BookedTotals {
  statementCredits: { count: number; total: bigint };
  statementDebits: { count: number; total: bigint };
  unconfirmedCredits: { count: number; total: bigint };
  unconfirmedDebits: { count: number; total: bigint };
}

/** A line on the account that no imported statement carries: a connector's or one recorded by hand. */
export interface UnconfirmedLineRow {
  id: string;
  direction: 'credit' | 'debit';
  bankTxId: string;
  amount: bigint;
  bookedAt: Date;
  timeKnown: boolean;
  counterpartyName: string | null;
}

/** The window lines outside statements are counted in, both ends included. */
export interface Window {
  from: Date;
  to: Date;
}

type TotalsRow = { s_count: number; s_total: bigint; u_count: number; u_total: bigint };

/** Where a line's day starts and ends in Istanbul (a date given alone names the whole day, not its midnight UTC). */
const dayStart = (at: Prisma.Sql) => Prisma.sql`(date_trunc('day', ${at} AT TIME ZONE 'Europe/Istanbul') AT TIME ZONE 'Europe/Istanbul')`;
const dayEnd = (at: Prisma.Sql) => Prisma.sql`(${dayStart(at)} + interval '1 day' - interval '1 millisecond')`;
/** The first and last instant a line may be on: its own, or the bounds of its day when the bank gave the date alone. */
const earliest = (at: Prisma.Sql, known: Prisma.Sql) => Prisma.sql`CASE WHEN ${known} THEN ${at} ELSE ${dayStart(at)} END`;
const latest = (at: Prisma.Sql, known: Prisma.Sql) => Prisma.sql`CASE WHEN ${known} THEN ${at} ELSE ${dayEnd(at)} END`;
/** A line inside the window: its instant, or any part of its day when the bank gave the date alone. */
const inWindow = (at: Prisma.Sql, known: Prisma.Sql, window: Window) =>
  Prisma.sql`(${latest(at, known)} >= ${window.from} AND ${earliest(at, known)} <= ${window.to})`;

const TRANSFER_AT = Prisma.sql`received_at`;
const TRANSFER_KNOWN = Prisma.sql`received_time_known`;
const DEBIT_AT = Prisma.sql`booked_at`;
const DEBIT_KNOWN = Prisma.sql`booked_time_known`;

/** Reads what reconciling a receiving account needs: its statements and the lines recorded on it. */
export class ReconciliationRepository {
  constructor(private readonly db: PrismaClient) {}

  accounts() {
    return this.db.receivingBankAccount.findMany({
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, bankName: true, iban: true },
    });
  }

  account(id: string) {
    return this.db.receivingBankAccount.findUnique({ where: { id }, select: { id: true, bankName: true, iban: true } });
  }

  /** Every statement of the account; the line times come from the indexes on `statement_id`. */
  statementsOf(accountId: string): Promise<StatementRow[]> {
    return this.db.$queryRaw<StatementRow[]>`
      SELECT s.id::text AS "id", s.statement_ref AS "statementRef", s.opening_balance AS "openingBalance",
        s.closing_balance AS "closingBalance", s.period_from AS "periodFrom", s.period_to AS "periodTo",
        s.period_time_known AS "periodTimeKnown", s.imported_at AS "importedAt",
        LEAST((SELECT min(${earliest(TRANSFER_AT, TRANSFER_KNOWN)}) FROM bank_transfers t WHERE t.statement_id = s.id),
              (SELECT min(${earliest(DEBIT_AT, DEBIT_KNOWN)}) FROM bank_statement_debits d WHERE d.statement_id = s.id)) AS "firstLineAt",
        GREATEST((SELECT max(${latest(TRANSFER_AT, TRANSFER_KNOWN)}) FROM bank_transfers t WHERE t.statement_id = s.id),
                 (SELECT max(${latest(DEBIT_AT, DEBIT_KNOWN)}) FROM bank_statement_debits d WHERE d.statement_id = s.id)) AS "lastLineAt"
      FROM bank_statements s
      WHERE s.receiving_account_id = ${accountId}::uuid`;
  }

  async totals(accountId: string, window: Window): Promise<BookedTotals> {
    const [credits, debits] = await Promise.all([
      this.db.$queryRaw<TotalsRow[]>`
        SELECT count(*) FILTER (WHERE statement_id IS NOT NULL)::int AS s_count,
          coalesce(sum(amount) FILTER (WHERE statement_id IS NOT NULL), 0)::bigint AS s_total,
          count(*) FILTER (WHERE statement_id IS NULL AND ${inWindow(TRANSFER_AT, TRANSFER_KNOWN, window)})::int AS u_count,
          coalesce(sum(amount) FILTER (WHERE statement_id IS NULL AND ${inWindow(TRANSFER_AT, TRANSFER_KNOWN, window)}), 0)::bigint AS u_total
        FROM bank_transfers WHERE receiving_account_id = ${accountId}::uuid`,
      this.db.$queryRaw<TotalsRow[]>`
        SELECT count(*) FILTER (WHERE statement_id IS NOT NULL)::int AS s_count,
          coalesce(sum(amount) FILTER (WHERE statement_id IS NOT NULL), 0)::bigint AS s_total,
          count(*) FILTER (WHERE statement_id IS NULL AND ${inWindow(DEBIT_AT, DEBIT_KNOWN, window)})::int AS u_count,
          coalesce(sum(amount) FILTER (WHERE statement_id IS NULL AND ${inWindow(DEBIT_AT, DEBIT_KNOWN, window)}), 0)::bigint AS u_total
        FROM bank_statement_debits WHERE receiving_account_id = ${accountId}::uuid`,
    ]);
    const c = credits[0] ?? { s_count: 0, s_total: 0n, u_count: 0, u_total: 0n };
    const d = debits[0] ?? { s_count: 0, s_total: 0n, u_count: 0, u_total: 0n };
    return {
      statementCredits: { count: c.s_count, total: c.s_total },
      statementDebits: { count: d.s_count, total: d.s_total },
      unconfirmedCredits: { count: c.u_count, total: c.u_total },
      unconfirmedDebits: { count: d.u_count, total: d.u_total },
    };
  }

  /** The first `limit` lines in the window no statement carries, credits and debits, oldest first. */
  unconfirmedLines(accountId: string, window: Window, limit: number): Promise<UnconfirmedLineRow[]> {
    return this.db.$queryRaw<UnconfirmedLineRow[]>`
      SELECT * FROM (
        SELECT id::text AS "id", 'credit' AS "direction", bank_tx_id AS "bankTxId", amount, received_at AS "bookedAt",
          received_time_known AS "timeKnown", nullif(sender_name, '') AS "counterpartyName"
        FROM bank_transfers
        WHERE receiving_account_id = ${accountId}::uuid AND statement_id IS NULL AND ${inWindow(TRANSFER_AT, TRANSFER_KNOWN, window)}
        UNION ALL
        SELECT id::text, 'debit', bank_tx_id, amount, booked_at, booked_time_known, counterparty_name
        FROM bank_statement_debits
        WHERE receiving_account_id = ${accountId}::uuid AND statement_id IS NULL AND ${inWindow(DEBIT_AT, DEBIT_KNOWN, window)}
      ) lines
      ORDER BY "bookedAt", "id"
      LIMIT ${limit}`;
  }
}
