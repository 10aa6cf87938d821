import { randomUUID } from 'node:crypto';
import { Prisma, type DepositIntent, type DepositStatus, type PrismaClient } from '@kasa/db';
import { keysetWhere, NEWEST_FIRST, type ListWindow } from './keyset.js';

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

export class DepositRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Inserts the intent unless the site already has one under this idempotency key; returns null then.
   * One statement, so twenty concurrent retries produce exactly one row.
   */
  async insertUnlessKeyExists(input: NewDeposit): Promise<InsertedDeposit | null> {
    const id = input.id ?? randomUUID();
    const rows = await this.db.$queryRaw<InsertedDeposit[]>(Prisma.sql`
      INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency,
        external_user_id, external_user_label, receiving_account_id, deposit_token_hash, expires_at,
        idempotency_key, idempotency_fingerprint, created_at, updated_at)
      VALUES (${id}::uuid, ${input.siteId}::uuid, ${input.referenceNo}, 'RESERVED', ${input.amount}, ${input.amount},
        ${input.currency}, ${input.externalUserId}, ${input.externalUserLabel}, ${input.receivingAccountId}::uuid,
        ${input.depositTokenHash}, now() + make_interval(secs => ${input.ttlSeconds}::int),
        ${input.idempotencyKey}, ${input.idempotencyFingerprint}, now(), now())
      ON CONFLICT (site_id, idempotency_key) DO NOTHING
      RETURNING id::text AS id, reference_no AS "referenceNo", amount, currency, expires_at AS "expiresAt"`);
    return rows[0] ?? null;
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<DepositIntent | null> {
    return this.db.depositIntent.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }

  /** Scoped lookup: another site's intent is indistinguishable from a missing one. */
  findInSite(siteId: string, id: string): Promise<DepositIntent | null> {
    return this.db.depositIntent.findFirst({ where: { id, siteId } });
  }

  list(siteId: string, statuses: DepositStatus[] | undefined, window: ListWindow): Promise<DepositIntent[]> {
    return this.db.depositIntent.findMany({
      where: { siteId, ...(statuses ? { status: { in: statuses } } : {}), ...keysetWhere(window) },
      orderBy: NEWEST_FIRST,
      take: window.limit,
    });
  }
}
