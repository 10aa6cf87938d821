import type { BankTransfer, BankTransferStatus, Prisma, PrismaClient } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';

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
}

export class BankTransferRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Inserts the transfer as UNMATCHED unless its bankTxId is known on its receiving account (hand-recorded
   * transfers, with no account, share one namespace); returns its id, or null for a repeat. A concurrent
   * duplicate waits on the unique index until the first commits, then inserts nothing.
   */
  async insertUnlessKnown(tx: Tx, input: NewBankTransfer): Promise<string | null> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO bank_transfers (id, bank_tx_id, amount, currency, sender_name, sender_iban, description, received_at, status,
        receiving_account_id, statement_id, created_at)
      VALUES (gen_random_uuid(), ${input.bankTxId}, ${input.amount}, ${input.currency}, ${input.senderName}, ${input.senderIban},
        ${input.description}, ${input.receivedAt}, 'UNMATCHED', ${input.receivingAccountId ?? null}::uuid, ${input.statementId ?? null}::uuid, now())
      ON CONFLICT (receiving_account_id, bank_tx_id) DO NOTHING
      RETURNING id::text`;
    return rows[0]?.id ?? null;
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

  list(statuses: BankTransferStatus[] | undefined, window: ListWindow): Promise<BankTransfer[]> {
    return this.db.bankTransfer.findMany(keysetPage(statuses ? { status: { in: statuses } } : {}, window));
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

  listForDeposit(intentId: string): Promise<BankTransfer[]> {
    return this.db.bankTransfer.findMany({ where: { intentId }, orderBy: { receivedAt: 'asc' } });
  }
}
