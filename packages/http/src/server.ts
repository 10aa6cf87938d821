import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Express } from 'express';
import { currentRequestId } from './request-scope.js';

/** How long a stopping process gives in-flight work when SHUTDOWN_GRACE_MS is not set. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

/**
 * How long an idle keep-alive connection stays open once a drain begins. A request a client sent on it just
 * before may still be unread (in the socket buffer of a busy process, or on its way): it is answered, with
 * `Connection: close`, instead of being reset unread. Connections still idle after this are closed.
 */
export const IDLE_LINGER_MS = 250;

/** What a server started by {@link listen} knows about its own shutdown. */
interface DrainState {
  draining: boolean;
  /** Once the linger is over, a connection that turns idle is closed at once. */
  lingerOver: boolean;
  /** Responses not yet finished (or whose connection has not closed). */
  inflight: Set<ServerResponse>;
  /** Resolves when the listener and the last connection have closed. */
  closed?: Promise<void>;
}

const drains = new WeakMap<Server, DrainState>();

const NOT_READY = JSON.stringify({ status: 'not_ready', checks: { shutdown: 'stopping' } });

function isReadinessProbe(req: IncomingMessage): boolean {
  const path = (req.url ?? '').split('?', 1)[0];
  return path === '/readyz' && (req.method === 'GET' || req.method === 'HEAD');
}

/**
 * Listens on `host`:`port` (0 picks a free port) and resolves with the server and the port it got. The server can be
 * drained by {@link close}: from then on /readyz answers 503 and every response closes its connection.
 */
export async function listen(app: Express, port: number, host: string): Promise<{ server: Server; port: number }> {
  const state: DrainState = { draining: false, lingerOver: false, inflight: new Set() };
  const server = createServer((req, res) => {
    if (state.draining) {
      // A request on a connection that was busy when the drain began: answered, and its connection closed.
      res.setHeader('Connection', 'close');
      if (isReadinessProbe(req)) {
        res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : NOT_READY);
        return;
      }
    }
    state.inflight.add(res);
    res.once('close', () => {
      state.inflight.delete(res);
      // The connection is idle now (a response whose headers went out before the drain kept it alive).
      if (state.lingerOver) server.closeIdleConnections();
    });
    void app(req, res);
  });
  drains.set(server, state);
  server.listen(port, host);
  await once(server, 'listening');
  // Longer than a typical load balancer idle timeout, so keep-alive sockets are closed by the client side.
  server.keepAliveTimeout = 65_000;
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Drains `server`: /readyz answers 503 at once, no new connection is accepted, each in-flight request is
 * answered with `Connection: close` and its connection ended after the response, and idle keep-alive
 * connections close after {@link IDLE_LINGER_MS} (a request arriving on one meanwhile is answered the same
 * way). Resolves when the last connection has closed. Unbounded on its own: a process bounds it with its
 * shutdown grace ({@link runProcess}) and then calls {@link forceClose}.
 */
export async function close(server: Server): Promise<void> {
  const state = drains.get(server);
  if (!state) {
    // Not started by listen(): Node's own close (idle connections are dropped at once).
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    return;
  }
  if (!state.closed) {
    state.draining = true;
    for (const res of state.inflight) if (!res.headersSent) res.setHeader('Connection', 'close');
    state.closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    // Stop accepting now. The listener alone: http's close() would also drop every idle keep-alive
    // connection at once, unread requests and all.
    NetServer.prototype.close.call(server);
    setTimeout(() => {
      // After this turn's poll phase, so whatever reached the sockets by now has been read (and its
      // connection is busy, not idle) even if the process was too busy to read it before.
      setImmediate(() => {
        state.lingerOver = true;
        // Closes the idle connections (and stops Node's connection-timeout checks); already closed is fine.
        server.close(() => undefined);
      });
    }, IDLE_LINGER_MS).unref();
  }
  await state.closed;
}

/** The end of a drain that ran out of time: every connection still open is destroyed. */
export function forceClose(server: Server): void {
  server.closeAllConnections();
}

/** What a process entry hands to {@link runProcess}: how to stop, how to give up, and where to log. */
export interface RunningProcess {
  /** The clean stop: drain HTTP and finish in-flight work, then close pools, queues and Redis. */
  stop(): Promise<void>;
  /** Called when `stop` has not finished within the grace: drop what it still waits for (sockets, clients). */
  forceStop?(): void;
  /** How long `stop` may take (SHUTDOWN_GRACE_MS); default {@link DEFAULT_SHUTDOWN_GRACE_MS}. */
  graceMs?: number;
  logger: {
    info(message: string, meta?: Record<string, unknown>): unknown;
    warn(message: string, meta?: Record<string, unknown>): unknown;
  };
}

/**
 * A rejection nobody handled or an exception nobody caught leaves the process in a state nothing planned
 * for: it is written as one JSON line on stderr (synchronous, so it is not lost to the exit) with the id
 * of the request whose work it was, and the process exits 1 for its supervisor to start a fresh one. Every
 * await on a request path is meant to make this unreachable; this line is how a miss shows.
 */
function exitOnUnexpectedFailure(name: string): void {
  const fatal = (kind: string) => (reason: unknown) => {
    const line = {
      level: 'error',
      service: name,
      message: `${name} ${kind}; exiting`,
      requestId: currentRequestId() ?? null,
      error: reason instanceof Error ? reason.message : String(reason),
      stack: reason instanceof Error ? reason.stack : undefined,
      timestamp: new Date().toISOString(),
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
    process.exit(1);
  };
  process.on('unhandledRejection', fatal('unhandled rejection'));
  process.on('uncaughtException', fatal('uncaught exception'));
}

/**
 * A service's process entry: starts it, and on SIGTERM/SIGINT (the first one) stops it within its grace.
 * Logs one line when stopping and one when stopped (with the duration); exits 0 after a clean stop, or 1
 * when the grace ran out (then `forceStop` drops what was left) or the stop failed. A start-up failure (a
 * bad configuration variable, a port in use) is one JSON line on stderr and exit code 1.
 */
export async function runProcess(name: string, start: () => Promise<RunningProcess>): Promise<void> {
  exitOnUnexpectedFailure(name);
  let running: RunningProcess;
  try {
    running = await start();
  } catch (error) {
    // One JSON line like every other log line (the logger may not exist yet: the configuration is what failed).
    const line = {
      level: 'error',
      service: name,
      message: `${name} could not start`,
      error: error instanceof Error ? error.message : String(error),
      timestamp: new Date().toISOString(),
    };
    process.stderr.write(`${JSON.stringify(line)}\n`);
    process.exit(1);
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    const { logger } = running;
    const graceMs = running.graceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
    const startedAt = performance.now();
    logger.info(`${name} stopping`, { signal, graceMs });
    let done = false;
    const finish = (code: number, meta: Record<string, unknown>): void => {
      if (done) return;
      done = true;
      const stopped = { durationMs: Math.round(performance.now() - startedAt), exitCode: code, ...meta };
      if (code === 0) logger.info(`${name} stopped`, stopped);
      else logger.warn(`${name} stopped`, stopped);
      // One turn of the loop lets the log line reach stdout.
      setImmediate(() => process.exit(code));
    };
    const deadline = setTimeout(() => {
      try {
        running.forceStop?.();
      } finally {
        finish(1, { forced: true });
      }
    }, graceMs);
    running.stop().then(
      () => {
        clearTimeout(deadline);
        finish(0, { forced: false });
      },
      (error: unknown) => {
        clearTimeout(deadline);
        finish(1, { forced: false, error: error instanceof Error ? error.message : String(error) });
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * Waits for one shutdown step, at most `ms`: a step stuck on a dependency that went away (a Redis that is
 * reconnecting, a queue waiting for it) must not keep a stopping process alive until it is killed.
 * Returns false when the step did not finish in time (the caller then forces what it can).
 */
export async function settleWithin(step: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([
      step.then(
        () => true,
        () => true,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A started HTTP service, as its process entry and its tests see it. */
export interface HttpService<Deps> {
  deps: Deps;
  port: number;
  url: string;
  /** Drains HTTP (see {@link close}), then closes the service's clients. */
  stop(): Promise<void>;
  /** After the grace: destroys the connections still open and drops the clients without waiting. */
  forceStop(): void;
}

/**
 * Serves `app` on `address` (port 0 for any free one); `stop` drains HTTP first, then runs `release` for the rest;
 * `forceStop` destroys open connections and runs `abandon` (drop clients without waiting).
 */
export async function serveHttp<Deps>(
  deps: Deps,
  app: Express,
  address: { port: number; host: string },
  release: () => Promise<void>,
  abandon: () => void = () => undefined,
): Promise<HttpService<Deps>> {
  const { server, port: bound } = await listen(app, address.port, address.host);
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      await close(server);
      await release();
    },
    forceStop() {
      forceClose(server);
      abandon();
    },
  };
}
