/**
 * Runs the benchmark's servers as the compiled services production runs (default: `node
 * services/<role>/dist/main.js` with the configuration as environment variables), as child processes from
 * source through tsx (BENCH_MODE=child-process), or in this process (BENCH_MODE=in-process). Either way the
 * load generator keeps its own event loop. Children are stopped by pid, never by name.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { KasaConfig } from '../../packages/config/src/index.js';
import { loadConfig } from '../../packages/config/src/index.js';
import { encodeConfig } from './config-codec.js';
import type { Role } from './servers.js';

export type Mode = 'compiled' | 'child-process' | 'in-process';

export interface ServiceHandle {
  role: Role;
  url: string;
  port: number;
  /** The child's pid, or null in in-process mode. */
  pid: number | null;
  stop(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** Every child started and not yet stopped, so a failure path can stop them all. */
const running = new Set<ChildProcess>();

/**
 * `logFile`: a compiled service's stdout (its JSON log lines) is appended there, as a container runtime
 * collects it, instead of reaching the bench's own stdout.
 */
export async function startService(
  role: Role,
  config: KasaConfig,
  mode: Mode,
  cpuProfDir?: string,
  logFile?: string,
): Promise<ServiceHandle> {
  if (mode === 'in-process') {
    const { startServer } = await import('./servers.js');
    const server = await startServer(role, config);
    return { role, port: server.port, url: `http://127.0.0.1:${server.port}`, pid: null, stop: () => server.stop() };
  }
  if (mode === 'compiled' && (role === 'ledger' || role === 'gateway')) return startCompiled(role, config, cpuProfDir, logFile);
  const execArgv = ['--import', 'tsx'];
  // One directory per role; the default file names carry pid and thread id (the tsx loader thread writes its own).
  if (cpuProfDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(cpuProfDir, role)}`);
  execArgv.push(...nodeArgs());
  const child = fork(CHILD, [role], {
    cwd: REPO_ROOT,
    execArgv,
    env: { ...process.env, BENCH_KASA_CONFIG: encodeConfig(config), NODE_ENV: 'test' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role}: not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    child.on('message', (message: { type?: string; port?: number; error?: string }) => {
      if (message.type === 'ready' && typeof message.port === 'number') {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`${role} failed to start: ${message.error}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited with ${code} before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { role, port, url: `http://127.0.0.1:${port}`, pid: child.pid ?? null, stop: () => stopChild(child) };
}

/** BENCH_NODE_ARGS: more Node flags for every server child (for example --trace-gc, whose lines land in its log). */
const nodeArgs = (): string[] => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** Asks the child to stop (it drains and exits); SIGKILLs that one pid if it has not exited in time. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (child.connected) child.send({ type: 'stop' });
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Stops every child this module started that is still running. */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => stopChild(child)));
}

export { REPO_ROOT };
export const repoPath = (...parts: string[]) => join(REPO_ROOT, ...parts);

/** A free loopback port for a compiled service (its port comes from the environment, as in a container). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The environment that makes `loadConfig` give back `config` (checked field by field): what a container of
 * this service would be given.
 */
function environmentOf(role: 'ledger' | 'gateway', config: KasaConfig, port: number): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: config.nodeEnv,
    LOG_LEVEL: config.logLevel,
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    REDIS_PREFIX: config.redisPrefix,
    INTERNAL_TOKEN: config.internalToken,
    OPS_BOOTSTRAP_TOKEN: config.opsBootstrapToken,
    CURSOR_SIGNING_KEY: config.cursorSigningKey,
    SECRET_ENCRYPTION_KEY: config.secretEncryptionKey.toString('base64'),
    STATEMENT_SIGNING_KEY: config.statementSigningKey.toString('base64'),
    HISTORY_SEAL_KEY: config.historySealKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    LEDGER_URL: config.ledgerUrl,
    PUBLIC_BASE_URL: config.publicBaseUrl,
    [role === 'ledger' ? 'LEDGER_PORT' : 'GATEWAY_PORT']: String(port),
  };
  const loaded = loadConfig(env);
  const ignored = new Set(['ledgerPort', 'gatewayPort', 'consolePublicUrl']);
  for (const [key, value] of Object.entries(config)) {
    if (ignored.has(key)) continue;
    if (comparable((loaded as unknown as Record<string, unknown>)[key]) !== comparable(value)) {
      throw new Error(`bench: the ${role}'s environment does not reproduce config.${key}`);
    }
  }
  return env;
}

/** JSON with bigint fields (money limits) as strings, for a field-by-field comparison. */
const comparable = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));

async function startCompiled(
  role: 'ledger' | 'gateway',
  config: KasaConfig,
  cpuProfDir?: string,
  logFile?: string,
): Promise<ServiceHandle> {
  const port = await freePort();
  const args = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfDir, role)}`] : [];
  args.push(...nodeArgs());
  const stdout = logFile ? openSync(logFile, 'a') : 'inherit';
  const child = spawn(process.execPath, [...args, join('services', role, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: environmentOf(role, config, port),
    stdio: ['ignore', stdout, 'inherit'],
  });
  // The child holds its own copy of the descriptor.
  if (typeof stdout === 'number') closeSync(stdout);
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${role} exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) {
      await stopChild(child);
      throw new Error(`${role}: not ready after ${READY_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { role, port, url, pid: child.pid ?? null, stop: () => stopChild(child) };
}
