/**
 * Runs the services exactly as their containers do: `node services/<name>/dist/main.js` (the image's CMD,
 * under tini in the image) with the environment a container gets, NODE_ENV=production and every required
 * variable, against a database of the test's own (migrated by `node packages/db/dist/migrate.js`, the
 * migrate Job's command) and a Redis prefix of its own. Also: keep-alive HTTP clients that classify what
 * happened to every request, for the shutdown tests.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from '@jest/globals';

// The command of each container (docker-compose.yml `command:`, k8s `args:`, after the image's tini) and of
// the migrate Job, as the deployment-file tests hold them.
import { MIGRATE_COMMAND, serviceCommand, type AppService } from '../deploy/common.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type CompiledService = AppService;

/** `npm run build`, which does nothing when the outputs are current (setup.mjs has normally run it already). */
export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stderr}`);
}

export { productionEnvironment, type ProductionEnvironment } from '@kasa/testkit';

/** The migrate Job: creates the database when missing and applies prisma/migrations; returns its JSON line. */
export async function migrate(env: Record<string, string>): Promise<{ databaseCreated: boolean; applied: string[] }> {
  const [command, ...args] = MIGRATE_COMMAND;
  expect(command).toBe('node');
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${MIGRATE_COMMAND.join(' ')} exited ${code}: ${stderr}${stdout}`);
  return JSON.parse(stdout.trim().split('\n').pop()!) as { databaseCreated: boolean; applied: string[] };
}

/** One JSON log line of a service (stdout). */
export interface LogLine {
  level: string;
  message: string;
  timestamp: string;
  [key: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Date.now() when the test saw the exit. */
  at: number;
}

export interface RunningService {
  name: CompiledService;
  child: ChildProcess;
  port: number;
  url: string;
  /** Milliseconds from spawn to the "listening"/"running" log line. */
  startupMs: number;
  logs: LogLine[];
  stderr(): string;
  exited: Promise<Exit>;
  /** Sends SIGTERM; resolves with the exit and the milliseconds from the signal to it. */
  terminate(): Promise<Exit & { afterMs: number }>;
}

const children = new Set<ChildProcess>();

/** Kills (SIGKILL, by pid) every service a test started and did not see exit: for afterAll. */
export function killLeftovers(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/** Starts a compiled service the way its container does and waits for its start-up log line. */
export async function startCompiled(name: CompiledService, env: Record<string, string>, timeoutMs = 30_000): Promise<RunningService> {
  const [command, ...args] = serviceCommand(name);
  // `node` is this very Node (the tests' own), as it is the image's.
  expect(command).toBe('node');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const logs: LogLine[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, at: Date.now() });
    });
  });
  const ready = new Promise<LogLine>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      logs.push(entry);
      if (/ (listening|running)$/.test(entry.message) && typeof entry.port === 'number') resolve(entry);
    });
    void exited.then((exit) => reject(new Error(`${name} exited (${exit.code ?? exit.signal}) before it was ready: ${stderr}`)));
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} not listening after ${timeoutMs} ms: ${stderr}`)), timeoutMs);
  });
  let line: LogLine;
  try {
    line = await Promise.race([ready, timeout]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const port = line.port as number;
  return {
    name,
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    startupMs: performance.now() - spawnedAt,
    logs,
    stderr: () => stderr,
    exited,
    async terminate() {
      const signalledAt = Date.now();
      child.kill('SIGTERM');
      const exit = await exited;
      return { ...exit, afterMs: exit.at - signalledAt };
    },
  };
}

/** What became of one request. */
export interface Outcome {
  path: string;
  requestId: string;
  /** Date.now() when it was sent, when the response headers arrived, and when it was settled. */
  sentAt: number;
  headersAt: number | null;
  doneAt: number;
  /**
   * complete: a whole response (body as long as Content-Length said). refused: no connection (the server
   * no longer listens). unanswered: the connection was reset or closed before any byte of an answer: the
   * request was never read, either sent on a kept-alive connection just as it was closed idle (the race every
   * HTTP/1.1 client handles by retrying, Node's `req.reusedSocket`) or on a connection still waiting in the
   * listen backlog when the listener closed. The tests bound when these may happen. failed: anything else,
   * e.g. a response cut short or no answer at all.
   */
  kind: 'complete' | 'refused' | 'unanswered' | 'failed';
  /** Whether it went over a connection an earlier request had used. */
  reusedSocket?: boolean;
  status?: number;
  headers?: IncomingHttpHeaders;
  error?: string;
}

/** Sends one GET over `agent`; never rejects. */
export function send(agent: Agent, origin: string, path: string, headers: Record<string, string>, requestId: string): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Omit<Outcome, 'path' | 'requestId' | 'sentAt' | 'doneAt'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ path, requestId, sentAt, doneAt: Date.now(), ...outcome });
    };
    const req = httpRequest(`${origin}${path}`, { agent, headers: { ...headers, 'x-request-id': requestId } }, (res) => {
      const headersAt = Date.now();
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('error', () => undefined);
      res.on('close', () => {
        const expected = res.headers['content-length'] === undefined ? null : Number(res.headers['content-length']);
        const whole = res.complete && (expected === null || expected === bytes);
        settle({
          kind: whole ? 'complete' : 'failed',
          status: res.statusCode,
          headers: res.headers,
          headersAt,
          ...(whole ? {} : { error: `response cut short after ${bytes} bytes` }),
        });
      });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const kind =
        error.code === 'ECONNREFUSED' ? 'refused' : error.code === 'ECONNRESET' || error.code === 'EPIPE' ? 'unanswered' : 'failed';
      settle({ kind, headersAt: null, reusedSocket: req.reusedSocket, error: `${error.code ?? ''} ${error.message}` });
    });
    const timer = setTimeout(() => {
      settle({ kind: 'failed', headersAt: null, error: 'no answer in 20 s' });
      req.destroy();
    }, 20_000);
    req.end();
  });
}

export interface Burst {
  outcomes: Outcome[];
  /** Resolves when every client has stopped (its server refused it, or `stop` was called). */
  done: Promise<void>;
  stop(): void;
}

/**
 * `clients` keep-alive clients, one connection each, sending requests back to back, each taking its next
 * request from `next(client, n)`; a client stops when its server refuses it or after `stop()`.
 */
export function burst(
  origin: string,
  clients: number,
  next: (client: number, n: number) => { path: string; headers?: Record<string, string> },
): Burst {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let seq = 0;
  const run = async (client: number) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; !stopped; n += 1) {
        const { path, headers = {} } = next(client, n);
        seq += 1;
        const outcome = await send(agent, origin, path, headers, `rt-${client}-${n}-${seq}`);
        outcomes.push(outcome);
        if (outcome.kind === 'refused') break;
      }
    } finally {
      agent.destroy();
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, client) => run(client))).then(() => undefined);
  return {
    outcomes,
    done,
    stop: () => {
      stopped = true;
    },
  };
}

/** An HTTP proxy that holds every request `delayMs` before passing it on, and records the X-Request-Id it saw. */
export interface DelayProxy {
  url: string;
  seen: Set<string>;
  close(): Promise<void>;
}

export async function startDelayProxy(target: string, delayMs: number): Promise<DelayProxy> {
  const seen = new Set<string>();
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  const server: Server = createServer((req, res) => {
    const id = req.headers['x-request-id'];
    if (typeof id === 'string') seen.add(id);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const upstream = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers, agent }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `check` until it is truthy; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 15_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A summary of a burst, for failure messages. */
export function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome.kind] = (counts[outcome.kind] ?? 0) + 1;
  return counts;
}
