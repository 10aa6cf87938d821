import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface DbOptions {
  connectionString: string;
  /** Pool size. The ledger owns the money tables; the webhook worker reads events and writes delivery state only. */
  max?: number;
  /**
   * How long a request waits for a connection (a new one, or a free one from a busy pool) before it fails:
   * an unreachable PostgreSQL gives a quick 503, not a request that hangs. Default 2 s.
   */
  connectionTimeoutMs?: number;
  /**
   * How long a query waits for its answer before it fails and its connection is discarded (node-postgres's
   * client-side `query_timeout`; no session setting, so it works behind a transaction pooler). Default none.
   */
  queryTimeoutMs?: number;
}

const DEFAULT_CONNECTION_TIMEOUT_MS = 2_000;

/** A Prisma client and the node-postgres pool under it, for hot paths where a plain statement is cheaper. */
export interface Database {
  prisma: PrismaClient;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** One pool for both: Prisma (through its pg adapter, no native engine) and plain SQL. */
export function createDatabase(options: DbOptions): Database {
  const pool = createPool(options);
  // No `statementNameGenerator`: Prisma's statements go unnamed, and its transactions (BEGIN ... COMMIT on one
  // checked-out connection) hold nothing past their end, so both are safe behind a transaction pooler.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/** A node-postgres pool that fails fast when the server is unreachable (a read replica's, or under Prisma). */
export function createPool(options: DbOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  });
  // An idle client's error (the server went away) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/** A Prisma client over node-postgres, with no native engine. */
export function createPrismaClient(options: DbOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
  });
  return new PrismaClient({ adapter });
}
