import type { PrismaClient } from '@kasa/db';

/** The intent behind a deposit page token hash, with its receiving account and its site's name, returnUrl and mode. */
export function findDepositByTokenHash(db: PrismaClient, tokenHash: string) {
  return db.deposit.findUnique({
    where: { depositTokenHash: tokenHash },
    include: { receivingAccount: true, site: { select: { name: true, returnUrl: true, livemode: true } } },
  });
}

/**
 * Records the end user's "I have sent the transfer" once: the first press sets the time, later ones change
 * nothing. Only while the intent waits for money; it moves no money and no status. True when it is recorded.
 */
export async function recordUserConfirmation(db: PrismaClient, tokenHash: string, now: Date): Promise<boolean> {
  await db.deposit.updateMany({
    where: { depositTokenHash: tokenHash, status: 'RESERVED', userConfirmedAt: null, expiresAt: { gt: now } },
    data: { userConfirmedAt: now },
  });
  const deposit = await db.deposit.findUnique({ where: { depositTokenHash: tokenHash }, select: { userConfirmedAt: true } });
  return deposit?.userConfirmedAt != null;
}
