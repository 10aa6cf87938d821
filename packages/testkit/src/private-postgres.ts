import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './private-redis.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  /** `postgresql://postgres@127.0.0.1:<port>` (trust auth); add a database name. */
  baseUrl: string;
  port: number;
  /** Stops the server at once (immediate shutdown: open connections are cut, like a crash). */
  stop(): Promise<void>;
  /** Starts it again on the same port, with its data. */
  start(): Promise<void>;
  /** Stops it and deletes its data directory. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL server binaries installed from Debian's packages. */
function binDir(): string {
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no PostgreSQL server found under /usr/lib/postgresql');
  return join('/usr/lib/postgresql', versions[0] as string, 'bin');
}

/**
 * Runs a PostgreSQL tool (`initdb`, `pg_ctl`, `pg_basebackup`...) from {@link binDir}; as root, as the
 * `postgres` user (runuser), since the server refuses to run as root.
 */
export async function runPostgresTool(command: string, args: string[]): Promise<void> {
  const tool = join(binDir(), command);
  const [file, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
  await run(file, argv, { timeout: 60_000 });
}

/** A fresh temporary directory the server's user owns (`postgres` when running as root). */
export async function postgresOwnedTempDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (process.getuid?.() === 0) await run('chown', ['postgres', dir]);
  return dir;
}

/**
 * A PostgreSQL server of the test's own on a free loopback port, for tests that stop and restart it under
 * traffic without disturbing the machine's server. PostgreSQL refuses to run as root, so as root the
 * server runs as the `postgres` user (runuser).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const dir = await postgresOwnedTempDir('kasa-pg-');
  const data = join(dir, 'data');
  // PostgreSQL's defaults (wal_level=replica, max_wal_senders=10) and initdb's trust `replication` lines in
  // pg_hba.conf are what startStreamingReplica needs to copy and follow this server.
  await runPostgresTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // fsync off only skips flushing the OS cache: a stopped server (not a crashed machine) keeps every commit.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => runPostgresTool('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  const stop = () => runPostgresTool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']).catch(() => undefined);
  await start();
  return {
    baseUrl: `postgresql://postgres@127.0.0.1:${port}`,
    port,
    start,
    stop,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
