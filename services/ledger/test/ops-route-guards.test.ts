/**
 * Every ops route refuses a request without a valid operator token (401) and every admin-only route refuses
 * a reviewer (403); the route table (@kasa/contracts) is checked against the routes the Express app really
 * registers, both ways.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp } from '../src/index.js';
import { startLedgerHarness, type LedgerHarness, type TestOperator } from './harness.js';
import { OPS_ROUTES, registeredRoutes, routeKey, type OpsRoute } from './ops-routes.js';

/** A concrete path for a row: every parameter a fresh (non-existent) UUID. */
const concrete = (route: OpsRoute) => route.path.replace(/:[A-Za-z]+/g, () => randomUUID());

let h: LedgerHarness;
let reviewer: TestOperator;
beforeAll(async () => {
  h = await startLedgerHarness();
  reviewer = await h.createOperator('REVIEWER');
});
afterAll(async () => {
  await h?.stop();
});

const guarded = OPS_ROUTES.filter((route) => route.role !== 'PUBLIC');
const adminOnly = OPS_ROUTES.filter((route) => route.role === 'ADMIN');
const bodyFor = (route: OpsRoute) => (route.method === 'GET' ? undefined : {});

describe('the ops route table', () => {
  it('lists every ops route the ledger app registers, and no route it does not', () => {
    const served = registeredRoutes(createApp(h.ledger.deps))
      .filter((route) => route.path.startsWith('/ops/v1/'))
      .map((route) => routeKey({ method: route.method, path: route.path.slice('/ops/v1'.length) }))
      .sort();
    expect(served).toEqual(OPS_ROUTES.map(routeKey).sort());
  });

  it('has one row per route', () => {
    expect(new Set(OPS_ROUTES.map(routeKey)).size).toBe(OPS_ROUTES.length);
  });
});

describe('ops route guards', () => {
  it.each(guarded.map((route) => [routeKey(route), route] as const))(
    '%s refuses a request without a token with 401',
    async (_name, route) => {
      const response = await fetch(`${h.ledger.url}/ops/v1${concrete(route)}`, {
        method: route.method,
        ...(route.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      expect(response.status).toBe(401);
    },
  );

  it.each(guarded.map((route) => [routeKey(route), route] as const))('%s refuses a garbage token with 401', async (_name, route) => {
    const response = await h.ops(route.method, concrete(route), bodyFor(route), `kop_${randomUUID()}`);
    expect(response.status).toBe(401);
  });

  it.each(adminOnly.map((route) => [routeKey(route), route] as const))('%s refuses a reviewer with 403', async (_name, route) => {
    const response = await h.ops(route.method, concrete(route), bodyFor(route), reviewer.token);
    expect(response.status).toBe(403);
  });

  it('lets login through without a token (the one public route)', async () => {
    const response = await h.ops('POST', '/login', {}, '');
    expect(response.status).toBe(400);
  });
});
