/**
 * The HTTP drain of @kasa/http (`listen`, `close`, `forceClose`) that every service's SIGTERM goes through,
 * in-process and step by step: what a keep-alive client sees at each moment of it.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import express from 'express';
import { Agent, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { ConfigError, loadConfig } from '@kasa/config';
import { close, DEFAULT_SHUTDOWN_GRACE_MS, forceClose, IDLE_LINGER_MS, listen } from '@kasa/http';
import { DEFAULT_SHUTDOWN_GRACE_MS as DEPLOYED_DEFAULT } from '../deploy/common.js';
import { send, sleep } from './support.js';

interface Started {
  server: Server;
  origin: string;
  port: number;
  /** Resolves every request waiting on /slow. */
  release(): void;
  waiting(): number;
}

let started: Started | undefined;
const agents: Agent[] = [];
const sockets: Socket[] = [];

afterEach(() => {
  for (const agent of agents.splice(0)) agent.destroy();
  for (const socket of sockets.splice(0)) socket.destroy();
  if (started) forceClose(started.server);
  started = undefined;
});

async function start(): Promise<Started> {
  const app = express();
  let waiters: Array<() => void> = [];
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', (_req, res) => {
    res.json({ status: 'ready' });
  });
  app.get('/slow', async (_req, res) => {
    await new Promise<void>((resolve) => waiters.push(resolve));
    res.json({ slow: true });
  });
  // Headers and half the body at once, the rest when released.
  app.get('/stream', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '4' });
    res.write('ab');
    await new Promise<void>((resolve) => waiters.push(resolve));
    res.end('cd');
  });
  const { server, port } = await listen(app, 0, '127.0.0.1');
  started = {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    release() {
      const now = waiters;
      waiters = [];
      for (const resolve of now) resolve();
    },
    waiting: () => waiters.length,
  };
  return started;
}

function keepAlive(): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}

async function rawConnection(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

const waitUntil = async (check: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
};

describe('draining an HTTP server', () => {
  it('refuses new connections at once and answers an in-flight request whole, with Connection: close', async () => {
    const { server, origin, release, waiting } = await start();
    const agent = keepAlive();
    expect((await send(agent, origin, '/healthz', {}, 'warm')).headers?.connection).toBe('keep-alive');
    const inFlight = send(agent, origin, '/slow', {}, 'slow');
    await waitUntil(() => waiting() === 1);

    const closed = close(server);
    const refused = await send(keepAlive(), origin, '/healthz', {}, 'late');
    expect(refused.kind).toBe('refused');
    release();
    const answer = await inFlight;
    expect(answer).toMatchObject({ kind: 'complete', status: 200 });
    expect(answer.headers?.connection).toBe('close');
    await closed;
  });

  it('turns /readyz to 503 for a request that arrives during the drain', async () => {
    const { server, port } = await start();
    const raw = await rawConnection(port);
    // Half a request before the drain: the connection is busy, so the drain waits for it.
    raw.socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n');
    await sleep(50);
    const closed = close(server);
    raw.socket.write('\r\n');
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(raw.received().toLowerCase()).toContain('connection: close');
    expect(raw.received()).toContain('{"status":"not_ready","checks":{"shutdown":"stopping"}}');
    await closed;
  });

  it('answers a request that reaches an idle keep-alive connection during the linger, then closes it', async () => {
    const { server, port } = await start();
    const raw = await rawConnection(port);
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => raw.received().includes('{"status":"ok"}'));
    expect(raw.received().toLowerCase()).toContain('connection: keep-alive');

    // The connection is idle when the drain begins; a request on it just after is still answered.
    const closed = close(server);
    const before = raw.received().length;
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await raw.closed;
    const second = raw.received().slice(before);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    expect(second.toLowerCase()).toContain('connection: close');
    await closed;
  });

  it('closes a connection that stays idle once the linger is over', async () => {
    const { server, port } = await start();
    const raw = await rawConnection(port);
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitUntil(() => raw.received().includes('{"status":"ok"}'));
    const began = Date.now();
    await close(server);
    await raw.closed;
    expect(Date.now() - began).toBeGreaterThanOrEqual(IDLE_LINGER_MS - 20);
  });

  it('ends a keep-alive connection after a response that started before the drain', async () => {
    const { server, origin, release, waiting } = await start();
    const agent = keepAlive();
    const streaming = send(agent, origin, '/stream', {}, 'stream');
    await waitUntil(() => waiting() === 1);
    const closed = close(server);
    await sleep(IDLE_LINGER_MS + 100);
    release();
    const answer = await streaming;
    expect(answer).toMatchObject({ kind: 'complete', status: 200 });
    // Its headers went out before the drain (keep-alive); its connection is closed once it is idle.
    expect(answer.headers?.connection).toBe('keep-alive');
    await closed;
  });

  it('leaves a request that never ends to forceClose, which destroys it', async () => {
    const { server, origin, waiting } = await start();
    const stuck = send(keepAlive(), origin, '/slow', {}, 'stuck');
    await waitUntil(() => waiting() === 1);
    let done = false;
    const closed = close(server).then(() => (done = true));
    await sleep(IDLE_LINGER_MS + 100);
    expect(done).toBe(false);
    forceClose(server);
    await closed;
    expect((await stuck).kind).not.toBe('complete');
  });
});

describe('SHUTDOWN_GRACE_MS', () => {
  it('is 25 s unless set, the default the deployment files plan for', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(25_000);
    expect(DEFAULT_SHUTDOWN_GRACE_MS).toBe(25_000);
    expect(DEPLOYED_DEFAULT).toBe(25_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '5000' }).shutdownGraceMs).toBe(5_000);
  });

  it.each(['soon', '-1', '500', '3600001'])('refuses %s', (value) => {
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: value })).toThrow(ConfigError);
  });
});
