import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { postgresOwnedTempDir, runPostgresTool, type PrivatePostgres } from './private-postgres.js';
import { freePort } from './private-redis.js';

export interface StreamingReplicaOptions {
  /**
   * `recovery_min_apply_delay`: the replica applies each commit this long after the primary made it, so a test
   * sees replication lag on purpose. Default 0 (applied as it arrives).
   */
  applyDelayMs?: number;
  /**
   * The name the replica gives the primary (its WAL receiver's `application_name`, set through `cluster_name`),
   * which the primary's `synchronous_standby_names` can list. Default: PostgreSQL's own (`walreceiver`).
   */
  applicationName?: string;
}

export interface StreamingReplica {
  /** `postgresql://postgres@127.0.0.1:<port>` (trust auth, read-only); add a database name. */
  baseUrl: string;
  port: number;
  applyDelayMs: number;
  /** Its `application_name` on the primary (`pg_stat_replication`), when one was given. */
  applicationName: string | null;
  /**
   * Promotes it to a primary (`pg_ctl promote`, waiting until it accepts writes): it stops following its primary
   * and serves writes from what it had received, as a failover does. A primary that is still running is the
   * caller's to stop first, or two servers accept writes.
   */
  promote(): Promise<void>;
  /** Stops the replica at once (immediate shutdown: open connections are cut, like a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port; it catches up with the primary from where it stopped. */
  start(): Promise<void>;
  /** Stops it and deletes its data directory (the primary is the caller's to destroy). */
  destroy(): Promise<void>;
}

/**
 * A hot-standby streaming replica of a private primary ({@link startPrivatePostgres}) on a free loopback port:
 * `pg_basebackup -R` copies the primary and configures the replica to follow it, as a managed replica does.
 * Runs as the `postgres` user when the tests run as root, like the primary.
 */
export async function startStreamingReplica(primary: PrivatePostgres, options: StreamingReplicaOptions = {}): Promise<StreamingReplica> {
  const applyDelayMs = options.applyDelayMs ?? 0;
  if (options.applicationName !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.applicationName)) {
    throw new Error(`applicationName "${options.applicationName}" must be lower-case letters, digits and _`);
  }
  const port = await freePort();
  const dir = await postgresOwnedTempDir('kasa-pg-replica-');
  const data = join(dir, 'data');
  // -R writes standby.signal and primary_conninfo; -X stream copies the WAL written while the backup runs.
  await runPostgresTool('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    data,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c hot_standby=on',
    `-c recovery_min_apply_delay=${applyDelayMs}ms`,
    ...(options.applicationName ? [`-c cluster_name=${options.applicationName}`] : []),
  ].join(' ');
  // pg_ctl -w returns once the standby accepts read-only connections (it has reached a consistent state).
  const start = () => runPostgresTool('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  const stop = () => runPostgresTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']).catch(() => undefined);
  await start();
  const baseUrl = `postgresql://postgres@127.0.0.1:${port}`;
  await assertStandby(baseUrl);
  return {
    baseUrl,
    port,
    applyDelayMs,
    applicationName: options.applicationName ?? null,
    async promote() {
      await runPostgresTool('pg_ctl', ['-D', data, '-w', '-t', '30', 'promote']);
    },
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A replica that is not in recovery would be a copy, not a follower: every lag a test measured would be false. */
async function assertStandby(baseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  try {
    const { rows } = await client.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    if (!rows[0]?.recovering) throw new Error(`the replica at ${baseUrl} is not in recovery`);
  } finally {
    await client.end();
  }
}
