import type { PayoutBatch, PayoutBatchItem, Prisma, PrismaClient } from '@kasa/db';

type Tx = Prisma.TransactionClient;

/**
 * Whether an upper-case word can be a payout item's reference as {@link PayoutBatchRepository.insertItems} writes them: a
 * withdrawal's reference number (`KW` and eight characters) or a sender return's (`R` and the 32 hex digits of its id).
 * Only such words of a line's text are looked up: a file's thousands of other words name no payout.
 */
export const isPayoutReference = (word: string): boolean => /^(?:KW[A-Z0-9]{8}|R[0-9A-F]{32})$/.test(word);

/** A batch with its items in file order. */
export type PayoutBatchWithItems = PayoutBatch & { items: PayoutBatchItem[] };

/**
 * A batched payout a bank line names: its item, the status of the withdrawal or return behind it, the account its batch
 * pays from, and whether it is live money (a withdrawal of a live site, a return of a live transfer).
 */
export interface NamedPayout {
  item: PayoutBatchItem;
  status: string;
  receivingAccountId: string;
  livemode: boolean;
}

/** How many batches the list shows, newest first. */
const LIST_LIMIT = 100;

/**
 * Payout batches and their items. An item is known by its withdrawal, its return and its reference, each unique:
 * {@link insertItems} skips a payout another batch took (also one committed a moment ago by a batch created at the same
 * time), so no payout is ever in two files. A batch pays real money from the house's real account, so this repository
 * reads live payouts only (docs/sandbox.md, The boundary): a sandbox's withdrawal and a return of simulated money are
 * never candidates, whatever a caller asks; the database refuses them too (trigger `payout_batch_items_live_only`).
 */
export class PayoutBatchRepository {
  constructor(private readonly db: PrismaClient) {}

  createBatch(tx: Tx, data: { receivingAccountId: string; createdBy: string }): Promise<PayoutBatch> {
    return tx.payoutBatch.create({ data: { ...data, count: 0, total: 0n } });
  }

  /** Of the withdrawals named, those of a sandbox (a test key's), which no batch may take. */
  async sandboxWithdrawals(tx: Tx, withdrawalIds: readonly string[]): Promise<string[]> {
    if (withdrawalIds.length === 0) return [];
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT w.id::text AS id FROM withdrawals w JOIN sites s ON s.id = w.site_id
      WHERE w.id = ANY(${withdrawalIds}::uuid[]) AND NOT s.livemode ORDER BY w.id`;
    return rows.map((row) => row.id);
  }

  /**
   * Puts into the batch every APPROVED withdrawal of a live site (only `withdrawalIds` when given) and, without ids,
   * every APPROVED return of real money that no batch holds yet, oldest approval first; locks them (a concurrent
   * review waits for the batch) and returns the items inserted. A payout another batch holds is skipped, never moved.
   * Live only: a withdrawal joins its live site, a return is live and so is its transfer, or it is no candidate.
   */
  async insertItems(tx: Tx, batchId: string, withdrawalIds: readonly string[] | null): Promise<PayoutBatchItem[]> {
    const onlyIds = withdrawalIds !== null;
    await tx.$executeRaw`
      WITH picked AS (
        SELECT w.id, w.reference_no, w.amount, w.currency, w.target_iban, w.target_holder_name, w.approved_at
        FROM withdrawals w JOIN sites s ON s.id = w.site_id AND s.livemode
        WHERE w.status = 'APPROVED' AND (NOT ${onlyIds} OR w.id = ANY(${withdrawalIds ?? []}::uuid[]))
          AND NOT EXISTS (SELECT 1 FROM payout_batch_items i WHERE i.withdrawal_id = w.id)
          AND NOT EXISTS (SELECT 1 FROM screenings h WHERE h.subject_id = w.id AND h.status IN ('OPEN', 'CONFIRMED'))
        ORDER BY w.approved_at, w.id
        FOR UPDATE OF w
      ), returns AS (
        SELECT r.id, r.amount, r.currency, r.sender_iban, r.sender_name, r.approved_at
        FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id AND t.livemode
        WHERE r.livemode AND NOT ${onlyIds} AND r.status = 'APPROVED'
          AND NOT EXISTS (SELECT 1 FROM payout_batch_items i WHERE i.sender_return_id = r.id)
        ORDER BY r.approved_at, r.id
        FOR UPDATE OF r
      ), items AS (
        SELECT id AS withdrawal_id, NULL::uuid AS sender_return_id, reference_no AS reference, amount, currency,
          target_iban AS creditor_iban, target_holder_name AS creditor_name, approved_at, 0 AS kind FROM picked
        UNION ALL
        SELECT NULL::uuid, id, 'R' || replace(id::text, '-', ''), amount, currency, sender_iban, sender_name, approved_at, 1 FROM returns
      )
      INSERT INTO payout_batch_items (id, batch_id, withdrawal_id, sender_return_id, reference, amount, currency, creditor_iban,
        creditor_name, position)
      SELECT gen_random_uuid(), ${batchId}::uuid, withdrawal_id, sender_return_id, reference, amount, currency, creditor_iban, creditor_name,
        (row_number() OVER (ORDER BY kind, approved_at, reference))::int
      FROM items
      ON CONFLICT DO NOTHING`;
    return tx.payoutBatchItem.findMany({ where: { batchId }, orderBy: { position: 'asc' } });
  }

  /** Takes these withdrawals out of a batch being created (a hold committed while the batch waited for their lock). */
  async removeWithdrawals(tx: Tx, batchId: string, withdrawalIds: readonly string[]): Promise<void> {
    if (withdrawalIds.length === 0) return;
    await tx.payoutBatchItem.deleteMany({ where: { batchId, withdrawalId: { in: [...withdrawalIds] } } });
  }

  setTotals(tx: Tx, batchId: string, count: number, total: bigint): Promise<PayoutBatch> {
    return tx.payoutBatch.update({ where: { id: batchId }, data: { count, total } });
  }

  find(id: string): Promise<PayoutBatchWithItems | null> {
    return this.db.payoutBatch.findUnique({ where: { id }, include: { items: { orderBy: { position: 'asc' } } } });
  }

  list(): Promise<PayoutBatch[]> {
    return this.db.payoutBatch.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: LIST_LIMIT });
  }

  /**
   * The batched payouts with one of these references, with the current status of each one's withdrawal or return, its
   * batch's paying account and its mode.
   */
  async named(tx: Tx, references: readonly string[]): Promise<NamedPayout[]> {
    if (references.length === 0) return [];
    const items = await tx.payoutBatchItem.findMany({
      where: { reference: { in: [...new Set(references)] } },
      include: {
        batch: { select: { receivingAccountId: true } },
        withdrawal: { select: { status: true, site: { select: { livemode: true } } } },
        senderReturn: { select: { status: true, bankTransfer: { select: { livemode: true } } } },
      },
    });
    return items.map(({ batch, withdrawal, senderReturn, ...item }) => ({
      item,
      status: withdrawal?.status ?? senderReturn?.status ?? 'UNKNOWN',
      receivingAccountId: batch.receivingAccountId,
      livemode: (withdrawal?.site.livemode ?? senderReturn?.bankTransfer.livemode) === true,
    }));
  }
}
