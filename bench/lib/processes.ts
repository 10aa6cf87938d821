/**
 * Runs the benchmark's servers either as child processes (default: the load generator keeps its own event
 * loop and each server gets a core's worth of scheduling, as in production) or in this process
 * (BENCH_MODE=in-process, for comparison). Children are stopped by pid, never by name.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { KasaConfig } from '../../packages/config/src/index.js';
import { encodeConfig } from './config-codec.js';
import type { Role } from './servers.js';

export type Mode = 'child-process' | 'in-process';

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

export async function startService(role: Role, config: KasaConfig, mode: Mode, cpuProfDir?: string): Promise<ServiceHandle> {
  if (mode === 'in-process') {
    const { startServer } = await import('./servers.js');
    const server = await startServer(role, config);
    return { role, port: server.port, url: `http://127.0.0.1:${server.port}`, pid: null, stop: () => server.stop() };
  }
  const execArgv = ['--import', 'tsx'];
  // One directory per role; the default file names carry pid and thread id (the tsx loader thread writes its own).
  if (cpuProfDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(cpuProfDir, role)}`);
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
