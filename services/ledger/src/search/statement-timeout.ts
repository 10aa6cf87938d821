/**
 * Recognises PostgreSQL cancelling a statement at its `statement_timeout` (SQLSTATE 57014, query_canceled), however
 * Prisma's pg adapter wrapped it: the driver error's `code`, the adapter's `originalCode`, or its message.
 */
const TIMEOUT_MESSAGE = /canceling statement due to statement timeout/i;
const MAX_DEPTH = 6;

export function isStatementTimeout(error: unknown, depth = 0): boolean {
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
