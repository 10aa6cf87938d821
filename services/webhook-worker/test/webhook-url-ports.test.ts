/**
 * The worker checks a webhook URL's port again before each delivery, with the ports WEBHOOK_ALLOWED_PORTS
 * allows, so a URL stored before the rule (or written straight into the database) is never called.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { loadConfig } from '@kasa/config';
import { createWorkerDeps, type WorkerDeps } from '../src/index.js';

let deps: WorkerDeps;
let listener: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  const config = loadConfig({
    NODE_ENV: 'test',
    REDIS_PREFIX: `kasa_t_${randomBytes(6).toString('hex')}`,
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // Only 443: the listener's random (ephemeral) port is not allowed, though the default would allow it.
    WEBHOOK_ALLOWED_PORTS: '443',
  });
  deps = createWorkerDeps(config);
});
afterAll(async () => {
  deps?.sender.close();
  await deps?.queue.close();
  deps?.queueConnection.disconnect();
  await deps?.pool.end();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('delivery-time port check', () => {
  it('refuses a URL whose port WEBHOOK_ALLOWED_PORTS does not allow, without connecting', async () => {
    const result = await deps.sender.send(`https://127.0.0.1:${port}/hook`, { 'content-type': 'application/json' }, '{}');
    expect(result).toMatchObject({ statusCode: null, responseBody: null });
    expect(result.error).toBe(`refused: webhook URL must not use port ${port} (allowed: 443)`);
    expect(connections).toBe(0);
  });

  it("builds the worker's guard from the configured ports", () => {
    expect(() => deps.guard.checkSyntax(`https://127.0.0.1:${port}/hook`)).toThrow(expect.objectContaining({ problem: 'port' }));
    expect(() => deps.guard.checkSyntax('https://127.0.0.1/hook')).not.toThrow();
  });
});
