import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { PrivatePostgres } from './private-postgres.js';
import { startStreamingReplica, type StreamingReplica } from './streaming-replica.js';

const run = promisify(execFile);

export interface SynchronousStandbyOptions {
  /** The standby's `application_name`, which the primary's `synchronous_standby_names` lists. Default `kasa_standby`. */
  applicationName?: string;
}

export interface SynchronousStandby extends StreamingReplica {
  /**
   * libpq's multi-host URL for a database on the pair, primary first, asking for a read-write session:
   * `postgresql://postgres@127.0.0.1:<primary>,127.0.0.1:<standby>/<database>?target_session_attrs=read-write`.
   * What a service's DATABASE_URL names so that it follows a failover.
   */
  failoverUrl(database: string): string;
}

/** How long the primary may take to see its new standby streaming as a synchronous one. */
const SYNC_WAIT_MS = 15_000;

/**
 * A streaming replica of `primary` that the primary waits for: `synchronous_standby_names` names it and
 * `synchronous_commit=on`, so no commit is acknowledged to a client before the standby has flushed its WAL, and a
 * promoted standby has every acknowledged commit. Resolves once the primary reports it `sync` in
 * `pg_stat_replication`. While the standby is down, the primary's commits wait for it (that is the guarantee).
 */
export async function startSynchronousStandby(
  primary: PrivatePostgres,
  options: SynchronousStandbyOptions = {},
): Promise<SynchronousStandby> {
  const applicationName = options.applicationName ?? 'kasa_standby';
  const standby = await startStreamingReplica(primary, { applicationName });
  const admin = new pg.Client({ connectionString: `${primary.baseUrl}/postgres` });
  await admin.connect();
  try {
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '"${applicationName}"'`);
    await admin.query(`ALTER SYSTEM SET synchronous_commit = 'on'`);
    await admin.query('SELECT pg_reload_conf()');
    const deadline = Date.now() + SYNC_WAIT_MS;
    for (;;) {
      const { rows } = await admin.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication WHERE application_name = $1', [
        applicationName,
      ]);
      if (rows[0]?.sync_state === 'sync') break;
      if (Date.now() > deadline) throw new Error(`the standby ${applicationName} did not become synchronous within ${SYNC_WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await standby.destroy();
    throw error;
  } finally {
    await admin.end();
  }
  const hosts = [primary.baseUrl, standby.baseUrl].map((url) => new URL(url).host).join(',');
  return {
    ...standby,
    failoverUrl: (database) => `postgresql://postgres@${hosts}/${database}?target_session_attrs=read-write`,
  };
}

/**
 * Kills a private PostgreSQL server as a crashed machine would: SIGKILL to the postmaster and every process it
 * had started (backends, WAL sender, checkpointer), nothing flushed, no goodbye to clients. Finds the postmaster
 * through the server itself (`data_directory`, then its `postmaster.pid`), so any private server can be killed.
 * Resolves once the server refuses connections. Its data stays; `destroy()` still removes it.
 */
export async function killPostgres(server: { baseUrl: string }): Promise<void> {
  const client = new pg.Client({ connectionString: `${server.baseUrl}/postgres` });
  await client.connect();
  let dataDirectory: string;
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    dataDirectory = rows[0]?.data_directory ?? '';
  } finally {
    await client.end();
  }
  // postmaster.pid: line 1 the postmaster's pid, line 7 its System V shared memory key and id.
  const lines = (await readFile(join(dataDirectory, 'postmaster.pid'), 'utf8')).split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no postmaster pid in ${dataDirectory}/postmaster.pid`);
  // Its children first read, then the postmaster killed (so it cannot restart them), then the children.
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => ''))
    .split(/\s+/)
    .filter((entry) => entry !== '')
    .map(Number);
  process.kill(pid, 'SIGKILL');
  for (const child of children) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const shmemId = lines[6]?.trim().split(/\s+/)[1];
  await waitUntilRefused(server.baseUrl);
  // A killed postmaster leaves its small System V segment behind; removing it keeps repeated runs from piling up.
  if (shmemId && /^\d+$/.test(shmemId)) await run('ipcrm', ['-m', shmemId]).catch(() => undefined);
}

async function waitUntilRefused(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const probe = new pg.Client({ connectionString: `${baseUrl}/postgres`, connectionTimeoutMillis: 500 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.end();
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${baseUrl} still accepts connections after SIGKILL`);
}
