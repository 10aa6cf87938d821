import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Listens on `port` (0 picks a free one) and resolves with the server and the port it got. */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<{ server: Server; port: number }> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  // Longer than a typical load balancer idle timeout, so keep-alive sockets are closed by the client side.
  server.keepAliveTimeout = 65_000;
  return { server, port: (server.address() as AddressInfo).port };
}

/** Stops accepting connections and waits for in-flight requests; idle keep-alive sockets are closed. */
export async function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeIdleConnections();
  await closed;
}

/** What a process entry hands to {@link runProcess}: how to stop, and where to log. */
export interface RunningProcess {
  stop(): Promise<void>;
  logger: { info(message: string, meta?: Record<string, unknown>): unknown };
}

/**
 * A service's process entry: starts it, stops it cleanly on SIGTERM/SIGINT (once), and turns a start-up
 * failure (a bad configuration variable, a port in use) into one line on stderr and exit code 1.
 */
export async function runProcess(name: string, start: () => Promise<RunningProcess>): Promise<void> {
  let running: RunningProcess;
  try {
    running = await start();
  } catch (error) {
    process.stderr.write(`${name} could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      running.logger.info(`${name} stopping`, { signal });
      running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
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
  stop(): Promise<void>;
}

/** Serves `app` on `port` (0 for any free port); `stop` drains HTTP first, then runs `release` for the rest. */
export async function serveHttp<Deps>(deps: Deps, app: Express, port: number, release: () => Promise<void>): Promise<HttpService<Deps>> {
  const { server, port: bound } = await listen(app, port);
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      await close(server);
      await release();
    },
  };
}
