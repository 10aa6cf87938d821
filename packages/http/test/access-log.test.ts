import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { createLogger } from '@kasa/logger';
import {
  accessLog,
  type AccessLogRequest,
  close,
  createHttpMetrics,
  errorHandler,
  listen,
  notFound,
  operationalRoutes,
  requestId,
  scrapeSample,
} from '../src/index.js';

interface Line {
  level: string;
  message: string;
  [field: string]: unknown;
}

const lines: Line[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
    done();
  },
});
const logger = createLogger({ service: 'test', level: 'debug', stream });
const metrics = createHttpMetrics('test');

/** What the access log gave `siteOf`, request after request. */
const siteOfArguments: AccessLogRequest[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(requestId);
  app.use(
    accessLog(logger, {
      siteOf: (request) => {
        siteOfArguments.push(request);
        return request.params.siteId ?? (request.res.locals.site as string | undefined);
      },
    }),
  );
  app.use(metrics.middleware);
  app.use(operationalRoutes(metrics.registry, {}));
  const merged = express.Router({ mergeParams: true });
  merged.get('/:itemId', (_req, res) => {
    res.json({ ok: true });
  });
  const plain = express.Router();
  plain.get('/sites/:siteId/records/:recordId', (_req, res) => {
    res.status(201).json({ ok: true });
  });
  plain.get('/slow', async (_req, res) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    res.json({ late: true });
  });
  plain.get('/own-properties', (req, res) => {
    res.json({ ownRoute: Object.getOwnPropertyDescriptor(req, 'route') !== undefined, routePath: (req.route as { path: string }).path });
  });
  plain.get('/authenticated', (_req, res) => {
    res.locals.site = 'site-from-locals';
    res.json({ ok: true });
  });
  app.use('/api/sites/:siteId/items', merged);
  app.use('/api', plain);
  app.use(notFound);
  app.use(errorHandler(logger));
  const listening = await listen(app, 0, '127.0.0.1');
  server = listening.server;
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // fetch keeps its sockets alive; the test's own server may drop them.
  const closed = close(server);
  server.closeAllConnections();
  await closed;
});

/** The access lines of one request id, waiting briefly: the line is written when the answer finishes. */
async function accessLines(id: string): Promise<Line[]> {
  for (let i = 0; i < 50; i += 1) {
    const found = lines.filter((line) => line.requestId === id && line.message === 'http request');
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [];
}

const get = (path: string, id: string) => fetch(`${base}${path}`, { headers: { 'x-request-id': id } });

describe('access log', () => {
  it('writes one JSON line per request with the route template, never the raw path', async () => {
    const id = `req-${randomUUID()}`;
    const siteId = randomUUID();
    const recordId = randomUUID();
    expect((await get(`/api/sites/${siteId}/records/${recordId}?secret=x`, id)).status).toBe(201);
    const [line, ...more] = await accessLines(id);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 'info',
      service: 'test',
      requestId: id,
      method: 'GET',
      route: '/api/sites/:siteId/records/:recordId',
      status: 201,
      siteId,
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(line)).not.toContain(recordId);
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('names parameters of the mount path too', async () => {
    const id = `req-${randomUUID()}`;
    const siteId = randomUUID();
    await get(`/api/sites/${siteId}/items/item-7`, id);
    expect(await accessLines(id)).toEqual([expect.objectContaining({ route: '/api/sites/:siteId/items/:itemId', siteId, status: 200 })]);
  });

  it('follows the route without an accessor of its own on each request', async () => {
    // A per-request accessor gave every request a hidden class of its own, which kept it alive through young-generation
    // collections (docs/benchmarks.md): the one accessor lives on the app's request prototype.
    const id = `req-${randomUUID()}`;
    const answer = await get('/api/own-properties', id);
    expect(await answer.json()).toEqual({ ownRoute: false, routePath: '/own-properties' });
    expect(await accessLines(id)).toEqual([expect.objectContaining({ route: '/api/own-properties', status: 200 })]);
    // Likewise what siteOf is given: its lazy `params` is a getter of its class, not one of each call's own.
    const given = siteOfArguments.find((request) => request.req.requestId === id);
    expect(given?.route).toBe('/api/own-properties');
    expect(Object.getOwnPropertyDescriptor(given, 'params')).toBeUndefined();
  });

  it('labels requests that reach no route `unmatched`', async () => {
    const id = `req-${randomUUID()}`;
    expect((await get(`/nowhere/${randomUUID()}`, id)).status).toBe(404);
    expect(await accessLines(id)).toEqual([expect.objectContaining({ route: 'unmatched', status: 404 })]);
  });

  it('takes the site from what the app knows once the answer is sent', async () => {
    const id = `req-${randomUUID()}`;
    await get('/api/authenticated', id);
    expect(await accessLines(id)).toEqual([expect.objectContaining({ route: '/api/authenticated', siteId: 'site-from-locals' })]);
  });

  it('logs health, readiness and metrics probes at debug level only', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const id = `probe-${randomUUID()}`;
      await get(path, id);
      expect(await accessLines(id)).toEqual([expect.objectContaining({ level: 'debug', route: path })]);
    }
  });

  it('still writes one line, marked aborted, when the client goes away first', async () => {
    const id = `req-${randomUUID()}`;
    const controller = new AbortController();
    const request = fetch(`${base}/api/slow`, { headers: { 'x-request-id': id }, signal: controller.signal }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await request;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await accessLines(id)).toEqual([expect.objectContaining({ route: '/api/slow', aborted: true })]);
  });

  it('labels the HTTP histogram by the same templates', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toContain('route="/api/sites/:siteId/records/:recordId",status="201"');
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}/);
  });
});

describe('scrapeSample', () => {
  it('shares one read among the gauges of a scrape', async () => {
    let reads = 0;
    const sample = scrapeSample(async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return reads;
    });
    expect(await Promise.all([sample(), sample(), sample()])).toEqual([1, 1, 1]);
    expect(await sample()).toBe(2);
  });

  it('gives null, on time, when the read fails or hangs, and does not start another while one hangs', async () => {
    let hanging = 0;
    const hangs = scrapeSample(() => {
      hanging += 1;
      return new Promise<number>(() => undefined);
    }, 100);
    const started = Date.now();
    expect(await hangs()).toBeNull();
    expect(await hangs()).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hanging).toBe(1);
    const fails = scrapeSample(() => Promise.reject(new Error('PostgreSQL is down')));
    expect(await fails()).toBeNull();
  });
});
