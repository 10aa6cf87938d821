import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './private-redis.js';

const run = promisify(execFile);

/** Debian's PgBouncer (`apt-get install pgbouncer`). */
export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';

export interface PgBouncerOptions {
  /** The PostgreSQL server behind it; every database of that server is reachable under its own name. */
  upstreamHost?: string;
  upstreamPort?: number;
  /**
   * Server connections per database and user (`default_pool_size`). Small by default, so that clients really
   * do share server connections: a test with more clients than this shows what transaction pooling breaks.
   */
  poolSize?: number;
}

export interface PgBouncer {
  /** `postgresql://postgres@127.0.0.1:<port>`; add a database name of the upstream server. */
  baseUrl: string;
  port: number;
  poolSize: number;
  /** Stops PgBouncer (SIGTERM, immediate shutdown) and deletes its directory. */
  stop(): Promise<void>;
}

/**
 * A PgBouncer of the test's own in transaction mode (`pool_mode = transaction`) on a free loopback port, in
 * front of a PostgreSQL server with trust authentication: the pooler Kasa runs behind with
 * DATABASE_POOL_MODE=transaction. Not daemonized, so stop() ends it; as root it runs as the `postgres` user,
 * since PgBouncer refuses to run as root. No `ignore_startup_parameters`: node-postgres sends only `user`,
 * `database` (and `application_name` when set), which PgBouncer accepts.
 */
export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const port = await freePort();
  const poolSize = options.poolSize ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'kasa-pgbouncer-'));
  const ini = join(dir, 'pgbouncer.ini');
  const log = join(dir, 'pgbouncer.log');
  // auth_type trust still needs the user listed in auth_file; the password is not checked.
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${options.upstreamHost ?? '127.0.0.1'} port=${options.upstreamPort ?? 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      `logfile = ${log}`,
      '',
    ].join('\n'),
  );
  const account = process.getuid?.() === 0 ? await postgresAccount() : null;
  if (account) await run('chown', ['-R', `${account.uid}:${account.gid}`, dir]);
  const child: ChildProcess = spawn(PGBOUNCER_PATH, [ini], { stdio: 'ignore', ...(account ?? {}) });
  const exited = once(child, 'exit');
  const baseUrl = `postgresql://postgres@127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(`${baseUrl}/postgres`, child, 10_000);
  } catch (error) {
    const tail = readLog(log);
    await stop();
    throw new Error(`${(error as Error).message}; pgbouncer log: ${tail}`);
  }
  return { baseUrl, port, poolSize, stop };
}

async function postgresAccount(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Polls until a query through PgBouncer answers (it listens, and reaches the server), or the deadline. */
async function waitUntilServing(url: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  let last: unknown;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with code ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`pgbouncer did not serve within ${deadlineMs} ms: ${(last as Error | undefined)?.message}`);
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2_000);
  } catch {
    return '(none)';
  }
}
