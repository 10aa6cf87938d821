import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { DepositIntent, DepositStatus, PrismaClient } from '@kasa/db';
import type { ListWindow } from '../shared/keyset.js';
import { listScoped, ScopedLookup, type SiteScopedTable } from '../shared/site-scoped.js';

export interface NewDeposit {
  id?: string;
  siteId: string;
  referenceNo: string;
  amount: bigint;
  currency: string;
  externalUserId: string;
  externalUserLabel: string | null;
  receivingAccountId: string;
  depositTokenHash: string;
  ttlSeconds: number;
  idempotencyKey: string;
  idempotencyFingerprint: string;
}

export interface InsertedDeposit {
  id: string;
  referenceNo: string;
  amount: bigint;
  currency: string;
  expiresAt: Date;
}

/** The columns a lookup, a list item and a webhook show. */
export interface DepositRow {
  id: string;
  referenceNo: string;
  status: DepositStatus;
  requestedAmount: bigint;
  amount: bigint;
  currency: string;
  approvedAt: Date | null;
  rejectedAt: Date | null;
  rejectedReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const ROW_COLUMNS = `id::text AS id, reference_no AS "referenceNo", status::text AS status,
  requested_amount AS "requestedAmount", amount, currency, approved_at AS "approvedAt", rejected_at AS "rejectedAt",
  rejected_reason AS "rejectedReason", created_at AS "createdAt", updated_at AS "updatedAt"`;

type RawRow = Omit<DepositRow, 'amount' | 'requestedAmount'> & { amount: string; requestedAmount: string };
const toRow = (raw: RawRow): DepositRow => ({ ...raw, amount: BigInt(raw.amount), requestedAmount: BigInt(raw.requestedAmount) });
const TABLE: SiteScopedTable = { name: 'deposit_intents', columns: ROW_COLUMNS };

/**
 * The partner API's hot paths (create, lookup, list) as single plain statements on the shared pool: they
 * run on every partner request, where Prisma's per-query overhead was most of the ledger's CPU time.
 */
export class DepositRepository {
  private readonly lookup: ScopedLookup<RawRow>;

  constructor(
    private readonly db: PrismaClient,
    private readonly pool: pg.Pool,
  ) {
    this.lookup = new ScopedLookup<RawRow>(pool, TABLE);
  }

  /**
   * Inserts the intent unless the site already has one under this idempotency key; returns null then.
   * One statement, so twenty concurrent retries produce exactly one row.
   */
  async insertUnlessKeyExists(input: NewDeposit): Promise<InsertedDeposit | null> {
    const result = await this.pool.query<Omit<InsertedDeposit, 'amount'> & { amount: string }>(
      `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency,
         external_user_id, external_user_label, receiving_account_id, deposit_token_hash, expires_at,
         idempotency_key, idempotency_fingerprint, created_at, updated_at)
       VALUES ($1, $2, $3, 'RESERVED', $4, $4, $5, $6, $7, $8, $9, now() + make_interval(secs => $10::int), $11, $12, now(), now())
       ON CONFLICT (site_id, idempotency_key) DO NOTHING
       RETURNING id::text AS id, reference_no AS "referenceNo", amount, currency, expires_at AS "expiresAt"`,
      [
        input.id ?? randomUUID(),
        input.siteId,
        input.referenceNo,
        input.amount.toString(),
        input.currency,
        input.externalUserId,
        input.externalUserLabel,
        input.receivingAccountId,
        input.depositTokenHash,
        input.ttlSeconds,
        input.idempotencyKey,
        input.idempotencyFingerprint,
      ],
    );
    const row = result.rows[0];
    return row ? { ...row, amount: BigInt(row.amount) } : null;
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<DepositIntent | null> {
    return this.db.depositIntent.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }

  /** Scoped lookup: another site's record answers exactly like a missing one (see ScopedLookup). */
  async findInSite(siteId: string, id: string): Promise<DepositRow | null> {
    const raw = await this.lookup.find(siteId, id);
    return raw ? toRow(raw) : null;
  }

  async list(siteId: string, statuses: DepositStatus[] | undefined, window: ListWindow): Promise<DepositRow[]> {
    return (await listScoped<RawRow>(this.pool, TABLE, siteId, statuses, window)).map(toRow);
  }
}
