import type { PrismaClient } from '@kasa/db';

/** The intent behind a deposit page token hash, with its receiving account and site name. */
export function findIntentByTokenHash(db: PrismaClient, tokenHash: string) {
  return db.depositIntent.findUnique({
    where: { depositTokenHash: tokenHash },
    include: { receivingAccount: true, site: { select: { name: true } } },
  });
}
