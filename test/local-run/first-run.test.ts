/**
 * First run anywhere (scripts/local-engines.mjs): `npm start` and `npm test` on a machine where nothing answers on
 * the default PostgreSQL and Redis ports. The machine's own servers stay up for the other tests, so the defaults
 * are moved to closed ports (KASA_DEFAULT_POSTGRES_PORT, KASA_DEFAULT_REDIS_PORT) and the state directory to a
 * temporary one (KASA_STATE_DIR). Checked: the embedded PostgreSQL and a spare-port redis-server are started, used
 * (the services' database is migrated there; the tests' servers report those ports) and stopped at the end; a
 * URL given in the environment is used as given, and one that does not answer fails in one line, without a stack.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { TEST_POSTGRES_BASE, TEST_REDIS_URL } from '@kasa/testkit';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work: string[] = [];

/** A temporary state directory; others may enter it (as root the embedded PostgreSQL runs as `postgres`). */
function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-first-run-'));
  chmodSync(dir, 0o755);
  work.push(dir);
  return dir;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts a TCP connection on 127.0.0.1:`port` now. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** The environment of a machine with nothing on the default ports and no URL given. */
async function bareEnv(state: string): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    KASA_STATE_DIR: state,
    KASA_DEFAULT_POSTGRES_PORT: String(await closedPort()),
    KASA_DEFAULT_REDIS_PORT: String(await closedPort()),
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'TEST_POSTGRES_BASE', 'TEST_REDIS_URL', 'NODE_ENV', 'KASA_ENGINE_REPORT'])
    delete env[name];
  return env;
}

interface Run {
  code: number | null;
  output: string;
}

function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const startedPostgres = (output: string) => Number(/started the embedded one on 127\.0\.0\.1:(\d+)/.exec(output)?.[1]);
const startedRedis = (output: string) => Number(/started redis-server on 127\.0\.0\.1:(\d+)/.exec(output)?.[1]);

afterAll(() => {
  for (const dir of work) rmSync(dir, { recursive: true, force: true });
});

describe('npm test with nothing on the default ports', () => {
  it('runs the tests on an embedded PostgreSQL and a spare-port redis-server, then stops both', async () => {
    const state = stateDir();
    const report = join(state, 'engines.json');
    const env: NodeJS.ProcessEnv = { ...(await bareEnv(state)), KASA_ENGINE_REPORT: report };
    const result = await run(['scripts/test.mjs', 'test/local-run/engine-report.test.ts'], env);
    expect({ code: result.code, tail: result.output.slice(-1500) }).toEqual({ code: 0, tail: expect.stringContaining('1 passed') });
    const postgres = startedPostgres(result.output);
    const redis = startedRedis(result.output);
    expect(postgres).toBeGreaterThan(0);
    expect(redis).toBeGreaterThan(0);
    // The jest worker reached exactly those two servers, not the machine's own.
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({ postgres, redis });
    expect(existsSync(join(state, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(await listening(postgres)).toBe(false);
    expect(await listening(redis)).toBe(false);
  }, 300_000);

  it('uses a given TEST_REDIS_URL as given and starts no redis-server', async () => {
    const state = stateDir();
    const report = join(state, 'engines.json');
    const env: NodeJS.ProcessEnv = { ...(await bareEnv(state)), KASA_ENGINE_REPORT: report, TEST_REDIS_URL, TEST_POSTGRES_BASE };
    const result = await run(['scripts/test.mjs', 'test/local-run/engine-report.test.ts'], env);
    expect(result.code).toBe(0);
    expect(result.output).not.toContain('started redis-server');
    expect(result.output).not.toContain('embedded');
    expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual({
      postgres: Number(new URL(TEST_POSTGRES_BASE).port || 5432),
      redis: Number(new URL(TEST_REDIS_URL).port || 6379),
    });
  }, 300_000);
});

describe('npm start with nothing on the default ports', () => {
  it('migrates and serves on an embedded PostgreSQL and a spare-port redis-server, and stops both on Ctrl+C', async () => {
    const state = stateDir();
    const env = await bareEnv(state);
    for (const name of ['GATEWAY_PORT', 'LEDGER_PORT', 'WORKER_PORT', 'CONSOLE_PORT', 'PARTNER_DEMO_PORT'])
      env[name] = String(await closedPort());
    // `npm start` runs in a process group of its own: the signal reaches every service, as Ctrl+C would.
    const suite = spawn('npm', ['start'], { cwd: root, env, detached: true });
    let output = '';
    const exited = new Promise<number | null>((resolve) => suite.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('[kasa] Ctrl+C stops everything.')) resolve();
        };
        suite.stdout.on('data', onData);
        suite.stderr.on('data', onData);
        void exited.then((code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-3000)}`)));
        setTimeout(() => reject(new Error(`npm start was not ready in 200 s:\n${output.slice(-3000)}`)), 200_000).unref();
      });
      expect(output).not.toMatch(/ECONNREFUSED/);
      const postgres = startedPostgres(output);
      const redis = startedRedis(output);
      expect(postgres).toBeGreaterThan(0);
      expect(redis).toBeGreaterThan(0);
      // The services' database is the embedded server's `kasa`, migrated; the ledger is ready on it and on Redis.
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${postgres}/kasa` });
      await client.connect();
      const migrations = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations').finally(() => client.end());
      expect(migrations.rows[0]!.n).toBeGreaterThan(0);
      const ready = await fetch(`http://127.0.0.1:${env.LEDGER_PORT}/readyz`);
      expect(ready.status).toBe(200);

      process.kill(-suite.pid!, 'SIGINT');
      const killed = setTimeout(() => process.kill(-suite.pid!, 'SIGKILL'), 60_000);
      await exited;
      clearTimeout(killed);
      expect(await listening(postgres)).toBe(false);
      expect(await listening(redis)).toBe(false);
    } finally {
      if (suite.exitCode === null && suite.signalCode === null) process.kill(-suite.pid!, 'SIGKILL');
    }
  }, 300_000);

  it('fails in one line, without a stack trace, when a given DATABASE_URL does not answer', async () => {
    const state = stateDir();
    const env = await bareEnv(state);
    const closed = await closedPort();
    env.DATABASE_URL = `postgresql://kasa:not-for-logs@127.0.0.1:${closed}/kasa`;
    for (const name of ['GATEWAY_PORT', 'LEDGER_PORT', 'WORKER_PORT', 'CONSOLE_PORT', 'PARTNER_DEMO_PORT'])
      env[name] = String(await closedPort());
    const result = await run(['scripts/start.mjs'], env);
    expect(result.code).toBe(1);
    const lines = result.output.split('\n').filter((line) => line.includes('PostgreSQL'));
    // One line naming the URL (password masked) and why; the why is ECONNREFUSED unless another process on this busy
    // machine took the free port meanwhile and dropped the connection.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^\\[kasa\\] PostgreSQL at DATABASE_URL=postgresql://kasa:\\*\\*\\*@127\\.0\\.0\\.1:${closed}/kasa does not answer \\([^)]+\\); it is used as given: start it or change DATABASE_URL$`,
      ),
    );
    expect(result.output).not.toMatch(/^\s+at /m);
    expect(result.output).not.toContain('not-for-logs');
    expect(result.output).not.toContain('embedded');
  }, 120_000);

  it('says in one line how to get Redis when none answers and redis-server is not installed', async () => {
    const state = stateDir();
    // PostgreSQL given (the machine's), Redis not, and a PATH with node alone: no redis-server on it.
    const bin = join(state, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const env: NodeJS.ProcessEnv = { ...(await bareEnv(state)), DATABASE_URL: `${TEST_POSTGRES_BASE}/postgres`, PATH: bin };
    for (const name of ['GATEWAY_PORT', 'LEDGER_PORT', 'WORKER_PORT', 'CONSOLE_PORT', 'PARTNER_DEMO_PORT'])
      env[name] = String(await closedPort());
    const result = await run(['scripts/start.mjs'], env);
    expect(result.code).toBe(1);
    expect(result.output.split('\n').filter((line) => line.includes('Redis'))).toEqual([
      `[kasa] Redis is not running on 127.0.0.1:${env.KASA_DEFAULT_REDIS_PORT} and redis-server is not installed: \`docker compose up -d redis\` or \`apt-get install redis-server\` (or set REDIS_URL)`,
    ]);
    expect(result.output).not.toMatch(/^\s+at /m);
  }, 120_000);
});
