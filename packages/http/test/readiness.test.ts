import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { createHttpMetrics, operationalRoutes, type DependencyCheck, type ReadinessCheck } from '../src/index.js';

const ok: ReadinessCheck = async () => undefined;
const down: ReadinessCheck = async () => {
  throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
};
const moved: ReadinessCheck = async () => {
  throw new Error('MOVED 9263 127.0.0.1:7001');
};
const misconfigured = (error: Error) => error.message.startsWith('MOVED');

function app(checks: Record<string, ReadinessCheck | DependencyCheck>) {
  const metrics = createHttpMetrics('test');
  const server = express();
  server.use(operationalRoutes(metrics.registry, checks));
  return server;
}

describe('GET /readyz', () => {
  it('is ready when every check passes', async () => {
    const res = await request(app({ postgres: ok, redis: { probe: ok, optional: true, misconfigured } })).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('stays 200, degraded, while an optional dependency is unavailable', async () => {
    const res = await request(app({ postgres: ok, redis: { probe: down, optional: true, misconfigured } })).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'degraded', checks: { postgres: 'ok', redis: 'unavailable' } });
  });

  it('fails on a misconfiguration even of an optional dependency', async () => {
    const res = await request(app({ postgres: ok, redis: { probe: moved, optional: true, misconfigured } })).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { postgres: 'ok', redis: 'misconfigured' } });
  });

  it('fails while a required dependency is unavailable, whatever the optional ones say', async () => {
    const res = await request(app({ postgres: down, redis: { probe: down, optional: true, misconfigured } })).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'not_ready', checks: { postgres: 'unavailable', redis: 'unavailable' } });
    const required = await request(app({ redis: { probe: down, misconfigured } })).get('/readyz');
    expect(required.status).toBe(503);
  });

  it('reports each probe as kasa_dependency_up', async () => {
    const server = app({ postgres: ok, redis: { probe: down, optional: true } });
    await request(server).get('/readyz');
    const metrics = (await request(server).get('/metrics')).text;
    expect(metrics).toMatch(/^kasa_dependency_up\{dependency="postgres",service="test"\} 1$/m);
    expect(metrics).toMatch(/^kasa_dependency_up\{dependency="redis",service="test"\} 0$/m);
  });
});
