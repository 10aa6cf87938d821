import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PrismaClient, Withdrawal, WithdrawalStatus } from '@kasa/db';
import type { ListWindow } from '../shared/keyset.js';
import { listScoped, ScopedLookup, type SiteScopedTable } from '../shared/site-scoped.js';

export interface NewWithdrawal {
  siteId: string;
  referenceNo: string;
  amount: bigint;
  currency: string;
  externalUserId: string;
  externalUserLabel: string | null;
  targetIban: string;
  targetHolderName: string;
  idempotencyKey: string;
  idempotencyFingerprint: string;
}

/** The columns a lookup, a list item and a webhook show. */
export interface WithdrawalRow {
  id: string;
  referenceNo: string;
  status: WithdrawalStatus;
  requestedAmount: bigint;
  amount: bigint;
  currency: string;
  sentAt: Date | null;
  rejectedAt: Date | null;
  rejectedReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ROW_COLUMNS = `id::text AS id, reference_no AS "referenceNo", status::text AS status,
  requested_amount AS "requestedAmount", amount, currency, sent_at AS "sentAt", rejected_at AS "rejectedAt",
  rejected_reason AS "rejectedReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

type RawRow = Omit<WithdrawalRow, 'amount' | 'requestedAmount'> & { amount: string; requestedAmount: string };
const toRow = (raw: RawRow): WithdrawalRow => ({ ...raw, amount: BigInt(raw.amount), requestedAmount: BigInt(raw.requestedAmount) });
const TABLE: SiteScopedTable = { name: 'withdrawals', columns: ROW_COLUMNS };

/** Withdrawals' partner-API hot paths as plain statements, like DepositRepository. */
export class WithdrawalRepository {
  private readonly lookup: ScopedLookup<RawRow>;

  constructor(
    private readonly db: PrismaClient,
    private readonly pool: pg.Pool,
  ) {
    this.lookup = new ScopedLookup<RawRow>(pool, TABLE);
  }

  /** Inserts unless the site already has a withdrawal under this idempotency key (then null). */
  async insertUnlessKeyExists(input: NewWithdrawal): Promise<{ id: string; referenceNo: string } | null> {
    const result = await this.pool.query<{ id: string; referenceNo: string }>(
      `INSERT INTO withdrawals (id, site_id, reference_no, status, requested_amount, amount, currency,
         external_user_id, external_user_label, target_iban, target_holder_name,
         idempotency_key, idempotency_fingerprint, created_at, updated_at)
       VALUES ($1, $2, $3, 'PENDING_REVIEW', $4, $4, $5, $6, $7, $8, $9, $10, $11, now(), now())
       ON CONFLICT (site_id, idempotency_key) DO NOTHING
       RETURNING id::text AS id, reference_no AS "referenceNo"`,
      [
        randomUUID(),
        input.siteId,
        input.referenceNo,
        input.amount.toString(),
        input.currency,
        input.externalUserId,
        input.externalUserLabel,
        input.targetIban,
        input.targetHolderName,
        input.idempotencyKey,
        input.idempotencyFingerprint,
      ],
    );
    return result.rows[0] ?? null;
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }

  /** Scoped lookup: another site's record answers exactly like a missing one (see ScopedLookup). */
  async findInSite(siteId: string, id: string): Promise<WithdrawalRow | null> {
    const raw = await this.lookup.find(siteId, id);
    return raw ? toRow(raw) : null;
  }

  async list(siteId: string, statuses: WithdrawalStatus[] | undefined, window: ListWindow): Promise<WithdrawalRow[]> {
    return (await listScoped<RawRow>(this.pool, TABLE, siteId, statuses, window)).map(toRow);
  }
}
