/** Small bounded waits for the drill: a free loopback port, a sleep, and a poll with a deadline. */
import { createServer } from 'node:net';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on now (the kernel's choice), for a process that must keep its port across restarts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` every `everyMs` until it holds, or throws naming `what` after `timeoutMs`. */
export async function until(what: string, timeoutMs: number, check: () => Promise<boolean> | boolean, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`drill: ${what}: not after ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
