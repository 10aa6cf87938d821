import type { Prisma, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';

/** What a list read past its statement timeout answers (503 `service_unavailable`). */
export const LIST_TOO_SLOW = 'The list took too long; narrow the filters.';

/**
 * Runs an operators' read (`read`, on the transaction it is given) under a statement timeout of `timeoutMs`
 * (OPS_READ_TIMEOUT_MS): a statement that would take longer is cancelled by PostgreSQL, never left running, and the
 * read answers 503 `service_unavailable` with `tooSlow`. The timeout is the transaction's own (`set_config(..., true)`,
 * as `SET LOCAL`): a session-level SET or a startup parameter would outlive the read on a connection that PgBouncer's
 * transaction pooling hands to someone else next, or be refused by it.
 */
export async function readWithTimeout<T>(
  db: PrismaClient,
  timeoutMs: number,
  tooSlow: string,
  read: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  try {
    return await db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`;
        return await read(tx);
      },
      // The statement timeout ends a slow statement; this only bounds the whole, a few statements of it.
      { maxWait: timeoutMs + 2_000, timeout: timeoutMs * 4 + 2_000 },
    );
  } catch (error) {
    if (isStatementTimeout(error)) throw new AppError('service_unavailable', tooSlow);
    throw error;
  }
}

const TIMEOUT_MESSAGE = /canceling statement due to statement timeout/i;
const MAX_DEPTH = 6;

/**
 * Recognises PostgreSQL cancelling a statement at its `statement_timeout` (SQLSTATE 57014, query_canceled), however
 * Prisma's pg adapter wrapped it: the driver error's `code`, the adapter's `originalCode`, or its message.
 */
function isStatementTimeout(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || error === null || typeof error !== 'object') return false;
  const field = (name: string): unknown => (error as Record<string, unknown>)[name];
  if (field('code') === '57014' || field('originalCode') === '57014') return true;
  for (const name of ['message', 'originalMessage']) {
    const text = field(name);
    if (typeof text === 'string' && TIMEOUT_MESSAGE.test(text)) return true;
  }
  const meta = field('meta');
  const inner = [
    field('cause'),
    meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>).driverAdapterError : undefined,
  ];
  return inner.some((next) => isStatementTimeout(next, depth + 1));
}
