/**
 * The compiled services started as their containers start them: `node services/<name>/dist/main.js` with a
 * production environment (bench/lib/processes.ts cannot pass settings outside KasaConfig's bench subset, such as
 * WEBHOOK_ALLOWED_HOSTS, which a local HTTPS receiver needs). The port is read from the "listening" log line;
 * the rest of stdout is drained (LOG_LEVEL=info logs every request) and only error lines are counted.
 * Children are stopped by their own pid, never by name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './processes.js';

export type CompiledService = 'ledger' | 'gateway' | 'webhook-worker';

export interface CompiledHandle {
  name: CompiledService;
  url: string;
  port: number;
  pid: number | null;
  /** Log lines of level error or above seen so far. */
  errorLines(): number;
  /** Warnings and errors seen so far, by message: how many and the last such line (what a failed drill prints). */
  warnings(): Array<{ message: string; count: number; last: string }>;
  /** Resolves when the process exits, however: its code or signal, the end of its stderr and its last error lines. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; lastErrors: string[] }>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** `nodeArgs`: Node flags NODE_OPTIONS refuses, such as `--cpu-prof`. */
export async function startCompiled(
  name: CompiledService,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<CompiledHandle> {
  const child = spawn(process.execPath, [...nodeArgs, `services/${name}/dist/main.js`], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = 0;
  let stderr = '';
  const lastErrors: string[] = [];
  const warnings = new Map<string, { count: number; last: string }>();
  child.stderr!.on('data', (chunk: Buffer) => {
    // The end is what tells why a process died; the start, why it did not start.
    stderr = (stderr + chunk.toString()).slice(-16_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; lastErrors: string[] }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stderr, lastErrors })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: not listening after ${READY_TIMEOUT_MS} ms: ${stderr}`)), READY_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: { level?: string | number; message?: string; port?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return; // not a log line
      }
      if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal') {
        const message = String(entry.message ?? '');
        const seen = warnings.get(message) ?? { count: 0, last: '' };
        // A bounded record: a flood of distinct messages keeps only the first 50.
        if (seen.count > 0 || warnings.size < 50) warnings.set(message, { count: seen.count + 1, last: line.slice(0, 600) });
      }
      if (entry.level === 'error' || entry.level === 'fatal' || (typeof entry.level === 'number' && entry.level >= 50)) {
        errors += 1;
        lastErrors.push(line.slice(0, 1_000));
        if (lastErrors.length > 10) lastErrors.shift();
      }
      if (/ (listening|running)$/.test(entry.message ?? '') && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolve(entry.port);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code} before it was ready: ${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? null,
    errorLines: () => errors,
    warnings: () => [...warnings].map(([message, { count, last }]) => ({ message, count, last })),
    exited,
    stop: () => stopChild(child),
  };
}

/** SIGTERM (the services drain and exit), then SIGKILL to that one pid if it has not exited in time. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Waits until `url`/readyz answers 200 (bounded). */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url}/readyz not 200 after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
