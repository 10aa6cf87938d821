/**
 * Recognises an error that means "a dependency (PostgreSQL, Redis, the ledger) cannot be reached right
 * now", however deep a driver wrapped it: node-postgres and pg-pool, Prisma's pg adapter, ioredis. Such a
 * request is answered 503 `service_unavailable` with `Retry-After`, never 500 (docs/operations.md, Outages).
 */

/** Socket errors, PostgreSQL's connection and shutdown SQLSTATEs, Prisma's "cannot reach" codes. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect
  // now), 53300 (too many connections).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // Prisma: cannot reach the server, timed out, server closed the connection, pool timeout.
  'P1001',
  'P1002',
  'P1008',
  'P1017',
  'P2024',
]);

/** Prisma's driver-adapter error kinds for a lost or refused connection. */
const UNAVAILABLE_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseDoesNotExist',
]);

/** Messages of errors that carry no code: pg-pool's and node-postgres's, ioredis's. */
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Can't reach database server/i,
  // Prisma's P2028 when no pooled connection came free within the transaction's maxWait: busy, not broken.
  /Unable to start a transaction in the given time/,
  /Stream isn't writeable and enableOfflineQueue options is false/,
  /Connection is closed\./,
  /Command timed out/,
  /Reached the max retries per request limit/,
  // ioredis's cluster client while it has no slot map or none of its nodes answers, and a cluster whose slots
  // are moving or not all served (replies: CLUSTERDOWN, TRYAGAIN; LOADING while a node reads its data).
  /Cluster isn't ready and enableOfflineQueue options is false/,
  /None of startup nodes is available/,
  /Failed to refresh slots cache/,
  /Too many Cluster redirections/,
  /^(CLUSTERDOWN|TRYAGAIN|LOADING) /,
];

const MAX_DEPTH = 6;

function fieldOf(value: object, name: string): unknown {
  return (value as Record<string, unknown>)[name];
}

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH || error === null || typeof error !== 'object') return false;
  const code = fieldOf(error, 'code');
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  const kind = fieldOf(error, 'kind');
  if (typeof kind === 'string' && UNAVAILABLE_KINDS.has(kind)) return true;
  const message = fieldOf(error, 'message');
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  const meta = fieldOf(error, 'meta');
  const nested: unknown[] = [
    fieldOf(error, 'cause'),
    meta !== null && typeof meta === 'object' ? fieldOf(meta, 'driverAdapterError') : undefined,
    ...(Array.isArray(fieldOf(error, 'errors')) ? (fieldOf(error, 'errors') as unknown[]) : []),
  ];
  return nested.some((inner) => isDependencyUnavailable(inner, depth + 1));
}

/** Seconds a client is asked to wait before retrying when a dependency is down. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
