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
}

export interface NewStatementDebit {
  receivingAccountId: string;
  /** Null for a line a bank connector posted. */
  statementId: string | null;
  bankTxId: string;
  amount: bigint;
  currency: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  description: string;
  endToEndId: string | null;
  returnReason: string | null;
  reversal: boolean;
  bookedAt: Date;
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
        period_from, period_to, imported_at)
      VALUES (gen_random_uuid(), ${input.receivingAccountId}::uuid, ${input.statementRef}, ${input.format}, ${input.currency},
        ${input.openingBalance}, ${input.closingBalance}, ${input.periodFrom}, ${input.periodTo}, now())
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

  /** Inserts a debit line unless its bank reference is known on the account; true when inserted. */
  async insertDebitUnlessKnown(tx: Tx, input: NewStatementDebit): Promise<boolean> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO bank_statement_debits (id, receiving_account_id, statement_id, bank_tx_id, amount, currency, counterparty_name,
        counterparty_iban, description, end_to_end_id, return_reason, reversal, booked_at, created_at)
      VALUES (gen_random_uuid(), ${input.receivingAccountId}::uuid, ${input.statementId}::uuid, ${input.bankTxId}, ${input.amount},
        ${input.currency}, ${input.counterpartyName}, ${input.counterpartyIban}, ${input.description}, ${input.endToEndId},
        ${input.returnReason}, ${input.reversal}, ${input.bookedAt}, now())
      ON CONFLICT (receiving_account_id, bank_tx_id) DO NOTHING
      RETURNING id::text`;
    return rows.length === 1;
  }

  debitsOf(statementId: string) {
    return this.db.bankStatementDebit.findMany({ where: { statementId }, orderBy: { bookedAt: 'asc' } });
  }
}
