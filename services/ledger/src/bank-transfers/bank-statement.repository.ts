import type { Prisma, PrismaClient } from '@kasa/db';

type Tx = Prisma.TransactionClient;

export interface NewBankStatement {
  receivingAccountId: string;
  statementRef: string;
  format: string;
  currency: string;
  openingBalance: bigint;
  closingBalance: bigint;
  periodFrom: Date | null;
  periodTo: Date | null;
  /** False when the period is dates alone (MT940). */
  periodTimeKnown: boolean;
}

export interface NewStatementDebit {
  receivingAccountId: string;
  /** Null for a line a bank connector posted. */
  statementId: string | null;
  bankTxId: string;
  /** The line's identity on the account (line-key.ts). */
  lineKey: string;
  amount: bigint;
  currency: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  description: string;
  endToEndId: string | null;
  returnReason: string | null;
  reversal: boolean;
  bookedAt: Date;
  /** False when the bank gave the booking date alone (`bookedAt` is midnight UTC of that day). */
  bookedTimeKnown: boolean;
}

/** Imported statements and their debit lines (money out, kept for matching payouts). */
export class BankStatementRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * The statement's row, inserted unless the account already has a statement with this bank id: `created`
   * says which. A concurrent import of the same statement waits on the unique index until the first commits,
   * then reads the first one's row.
   */
  async insertUnlessKnown(tx: Tx, input: NewBankStatement): Promise<{ id: string; created: boolean }> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO bank_statements (id, receiving_account_id, statement_ref, format, currency, opening_balance, closing_balance,
        period_from, period_to, period_time_known, imported_at)
      VALUES (gen_random_uuid(), ${input.receivingAccountId}::uuid, ${input.statementRef}, ${input.format}, ${input.currency},
        ${input.openingBalance}, ${input.closingBalance}, ${input.periodFrom}, ${input.periodTo}, ${input.periodTimeKnown}, now())
      ON CONFLICT (receiving_account_id, statement_ref) DO NOTHING
      RETURNING id::text`;
    const inserted = rows[0]?.id;
    if (inserted) return { id: inserted, created: true };
    const known = await tx.bankStatement.findUniqueOrThrow({
      where: { receivingAccountId_statementRef: { receivingAccountId: input.receivingAccountId, statementRef: input.statementRef } },
      select: { id: true },
    });
    return { id: known.id, created: false };
  }

  /**
   * Inserts debit lines in the order given unless their line key (line-key.ts) is known on the account; the keys
   * inserted. A known line a statement carries confirms the one the connector posted first (it takes the statement's
   * id). The caller passes each line key of an account once.
   */
  async insertDebitsUnlessKnown(tx: Tx, inputs: readonly NewStatementDebit[]): Promise<Set<string>> {
    if (inputs.length === 0) return new Set();
    const rows = await tx.$queryRaw<Array<{ lineKey: string; inserted: boolean }>>`
      INSERT INTO bank_statement_debits (id, receiving_account_id, statement_id, bank_tx_id, line_key, amount, currency, counterparty_name,
        counterparty_iban, description, end_to_end_id, return_reason, reversal, booked_at, booked_time_known, created_at)
      SELECT gen_random_uuid(), l.receiving_account_id, l.statement_id, l.bank_tx_id, l.line_key, l.amount, l.currency, l.counterparty_name,
        l.counterparty_iban, l.description, l.end_to_end_id, l.return_reason, l.reversal, l.booked_at, l.booked_time_known, now()
      FROM unnest(${inputs.map((d) => d.receivingAccountId)}::uuid[], ${inputs.map((d) => d.statementId)}::uuid[],
        ${inputs.map((d) => d.bankTxId)}::text[], ${inputs.map((d) => d.lineKey)}::text[], ${inputs.map((d) => d.amount.toString())}::bigint[],
        ${inputs.map((d) => d.currency)}::text[], ${inputs.map((d) => d.counterpartyName)}::text[], ${inputs.map((d) => d.counterpartyIban)}::text[],
        ${inputs.map((d) => d.description)}::text[], ${inputs.map((d) => d.endToEndId)}::text[], ${inputs.map((d) => d.returnReason)}::text[],
        ${inputs.map((d) => String(d.reversal))}::boolean[], ${inputs.map((d) => d.bookedAt.toISOString())}::timestamptz[],
        ${inputs.map((d) => d.bookedTimeKnown)}::boolean[])
        WITH ORDINALITY AS l(receiving_account_id, statement_id, bank_tx_id, line_key, amount, currency, counterparty_name, counterparty_iban,
          description, end_to_end_id, return_reason, reversal, booked_at, booked_time_known, ord)
      ORDER BY l.ord
      ON CONFLICT (receiving_account_id, line_key) DO UPDATE SET statement_id = EXCLUDED.statement_id
        WHERE bank_statement_debits.statement_id IS NULL AND EXCLUDED.statement_id IS NOT NULL
      RETURNING line_key AS "lineKey", (xmax = 0) AS inserted`;
    return new Set(rows.filter((row) => row.inserted).map((row) => row.lineKey));
  }

  debitsOf(statementId: string) {
    return this.db.bankStatementDebit.findMany({ where: { statementId }, orderBy: { bookedAt: 'asc' } });
  }
}
