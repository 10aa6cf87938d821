/**
 * The open-loop generator behind the benchmark's steady-load latency figures: it must count the time a
 * request waits for a free connection (no coordinated omission), never open more sockets than asked, and
 * report answers that are not 2xx and requests that fail.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { runSteady } from '../../bench/lib/steady-load.js';

interface Stub {
  origin: string;
  sockets: Set<Socket>;
  maxSockets: number;
  close(): Promise<void>;
}

/** Answers after `delayMs`; /fail answers 500, /drop destroys the socket without an answer. */
async function stub(delayMs: number): Promise<Stub> {
  const sockets = new Set<Socket>();
  const state = { maxSockets: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    if (request.url === '/drop') {
      request.socket.destroy();
      return;
    }
    setTimeout(() => {
      response.statusCode = request.url === '/fail' ? 500 : 200;
      response.setHeader('content-type', 'application/json');
      response.end('{"ok":true}');
    }, delayMs);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    state.maxSockets = Math.max(state.maxSockets, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    sockets,
    get maxSockets() {
      return state.maxSockets;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('steady (open-loop) load', () => {
  let running: Stub | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('counts the wait for a busy connection: one socket at twice its capacity builds a queue', async () => {
    const server = (running = await stub(50));
    // One connection answers at most 20/s; 40/s for 1 s schedules 40 requests, the last one ~1 s after the
    // first, while the socket can only have finished ~20 of them by then. Measured from the scheduled instant,
    // the last answers come ~1 s late; measured from the send (coordinated omission) they would look like 50 ms.
    const result = await runSteady({
      name: 'queue',
      origin: server.origin,
      connections: 1,
      ratePerSecond: 40,
      warmupSeconds: 0,
      durationSeconds: 1,
      next: () => ({ method: 'GET', path: '/', headers: {} }),
    });
    expect(result.sent).toBe(40);
    expect(result.completed).toBe(40);
    expect(result.errors).toBe(0);
    expect(result.statusCodes).toEqual({ '200': 40 });
    expect(server.maxSockets).toBe(1);
    expect(result.latencyMs.max).toBeGreaterThanOrEqual(800);
    expect(result.latencyMs.p99).toBeGreaterThanOrEqual(800);
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(400);
  });

  it('sends the scheduled number of requests over at most the given connections and reports their outcomes', async () => {
    const server = (running = await stub(5));
    let sequence = 0;
    const result = await runSteady({
      name: 'outcomes',
      origin: server.origin,
      connections: 4,
      ratePerSecond: 60,
      warmupSeconds: 0,
      durationSeconds: 1,
      // Every fifth request fails with 500, every tenth (also a multiple of five) has its socket dropped.
      next: () => {
        sequence += 1;
        return {
          method: 'POST',
          path: sequence % 10 === 0 ? '/drop' : sequence % 5 === 0 ? '/fail' : '/',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        };
      },
    });
    expect(result.sent).toBe(60);
    expect(result.offeredPerSecond).toBe(60);
    expect(server.maxSockets).toBeLessThanOrEqual(4);
    expect(result.errors).toBe(6);
    expect(result.statusCodes).toEqual({ '200': 48, '500': 6 });
    expect(result.non2xx).toBe(6);
    expect(result.completed).toBe(54);
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(5);
  });

  it('refuses a rate that is not positive', async () => {
    await expect(
      runSteady({
        name: 'zero',
        origin: 'http://127.0.0.1:9',
        connections: 1,
        ratePerSecond: 0,
        warmupSeconds: 0,
        durationSeconds: 1,
        next: () => ({ method: 'GET', path: '/', headers: {} }),
      }),
    ).rejects.toThrow('rate must be positive');
  });
});
