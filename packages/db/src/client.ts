import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { multiHostUrl, type DatabaseUrl } from './database-url.js';
import { PrismaClient } from './generated/prisma/client.js';
import { HostSelector, multiHostClient } from './multi-host.js';

export interface DbOptions {
  /**
   * A PostgreSQL URL. libpq's multi-host form (`postgresql://u@h1:5432,h2:5432/db?target_session_attrs=read-write`)
   * makes each new connection go to the first host that gives that kind of session, checked on connecting.
   */
  connectionString: string;
  /** Pool size. The ledger owns the money tables; the webhook worker reads events and writes delivery state only. */
  max?: number;
  /**
   * How long a request waits for a connection (a new one, or a free one from a busy pool) before it fails:
   * an unreachable PostgreSQL gives a quick 503, not a request that hangs. Default 2 s. With several hosts, each
   * host is given this long, and a request waits at most this times one more than the number of hosts (trying
   * each host in turn, then connecting to the one found).
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
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_DEFAULTS });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * How long a transaction may wait for a connection of the pool before Prisma gives up (its default is 2 s): a busy
 * pool (a ledger starting its workers, a burst of requests) waits its turn rather than failing the request. A server
 * that cannot be reached still fails sooner, by the pool's connection timeout.
 */
const TRANSACTION_DEFAULTS = { maxWait: 10_000 } as const;

/** A node-postgres pool that fails fast when the server is unreachable (a read replica's, or under Prisma). */
export function createPool(options: DbOptions): pg.Pool {
  const connectionTimeoutMs = options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS;
  const url = multiHostUrl(options.connectionString);
  const common = {
    max: options.max ?? 10,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  };
  const pool = url
    ? new pg.Pool({ ...common, ...multiHostPoolOptions(url, connectionTimeoutMs) })
    : new pg.Pool({ ...common, connectionString: options.connectionString, connectionTimeoutMillis: connectionTimeoutMs });
  // An idle client's error (the server went away) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

/** A pool's options for a multi-host URL: the hosts' selector, and room to try each host once. */
function multiHostPoolOptions(url: DatabaseUrl, connectionTimeoutMs: number): pg.PoolConfig {
  const selector = new HostSelector(url, connectionTimeoutMs);
  return {
    // node-postgres reads one host from its URL; each connect then goes to the host the selector chose.
    connectionString: url.forHost(selector.firstHost),
    connectionTimeoutMillis: connectionTimeoutMs * (url.hosts.length + 1),
    Client: multiHostClient(selector),
  };
}

/** A Prisma client over node-postgres, with no native engine. */
export function createPrismaClient(options: DbOptions): PrismaClient {
  if (multiHostUrl(options.connectionString)) {
    return new PrismaClient({
      adapter: new PrismaPg(createPool(options), { disposeExternalPool: true }),
      transactionOptions: TRANSACTION_DEFAULTS,
    });
  }
  const adapter = new PrismaPg({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
  });
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_DEFAULTS });
}
