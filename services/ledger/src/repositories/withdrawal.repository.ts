import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient, type Withdrawal, type WithdrawalStatus } from '@kasa/db';
import { keysetWhere, NEWEST_FIRST, type ListWindow } from './keyset.js';

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

export class WithdrawalRepository {
  constructor(private readonly db: PrismaClient) {}

  /** Inserts unless the site already has a withdrawal under this idempotency key (then null). */
  async insertUnlessKeyExists(input: NewWithdrawal): Promise<{ id: string; referenceNo: string } | null> {
    const rows = await this.db.$queryRaw<Array<{ id: string; referenceNo: string }>>(Prisma.sql`
      INSERT INTO withdrawals (id, site_id, reference_no, status, requested_amount, amount, currency,
        external_user_id, external_user_label, target_iban, target_holder_name,
        idempotency_key, idempotency_fingerprint, created_at, updated_at)
      VALUES (${randomUUID()}::uuid, ${input.siteId}::uuid, ${input.referenceNo}, 'PENDING_REVIEW', ${input.amount},
        ${input.amount}, ${input.currency}, ${input.externalUserId}, ${input.externalUserLabel}, ${input.targetIban},
        ${input.targetHolderName}, ${input.idempotencyKey}, ${input.idempotencyFingerprint}, now(), now())
      ON CONFLICT (site_id, idempotency_key) DO NOTHING
      RETURNING id::text AS id, reference_no AS "referenceNo"`);
    return rows[0] ?? null;
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }

  findInSite(siteId: string, id: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findFirst({ where: { id, siteId } });
  }

  list(siteId: string, statuses: WithdrawalStatus[] | undefined, window: ListWindow): Promise<Withdrawal[]> {
    return this.db.withdrawal.findMany({
      where: { siteId, ...(statuses ? { status: { in: statuses } } : {}), ...keysetWhere(window) },
      orderBy: NEWEST_FIRST,
      take: window.limit,
    });
  }
}
