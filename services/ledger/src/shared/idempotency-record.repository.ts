import type { Prisma, PrismaClient } from '@kasa/db';

type Db = Prisma.TransactionClient | PrismaClient;

export interface IdempotencyScope {
  siteId: string;
  route: string;
  key: string;
}

/** A stored answer to a partner request under an Idempotency-Key (routes whose result is not a record of its own). */
export interface StoredAnswer {
  fingerprint: string;
  statusCode: number;
  responseBody: Prisma.JsonValue;
  expiresAt: Date;
}

/** Durable idempotency answers in PostgreSQL, written in the transaction of the change they answer for. */
export class IdempotencyRecordRepository {
  constructor(private readonly db: PrismaClient) {}

  /** The stored answer, or null when there is none or it has expired by `now` (an expired one is deleted). */
  async find(scope: IdempotencyScope, now: Date, db: Db = this.db): Promise<StoredAnswer | null> {
    const record = await db.idempotencyRecord.findUnique({ where: { siteId_route_key: scope } });
    if (!record) return null;
    if (record.expiresAt <= now) {
      await db.idempotencyRecord.delete({ where: { id: record.id } });
      return null;
    }
    return record;
  }

  async store(
    tx: Prisma.TransactionClient,
    scope: IdempotencyScope,
    answer: Omit<StoredAnswer, 'responseBody'> & { responseBody: Prisma.InputJsonValue },
  ): Promise<void> {
    await tx.idempotencyRecord.create({ data: { ...scope, ...answer } });
  }
}
