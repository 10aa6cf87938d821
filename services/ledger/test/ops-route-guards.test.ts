/**
 * Every ops route refuses a request without a valid operator token (401), every admin-only (and connector) route
 * refuses a reviewer (403), and a bank connector's token is refused (403) by every route but its own; the route table (@kasa/contracts) is checked against the routes the Express app really
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
let connectorToken: string;
beforeAll(async () => {
  h = await startLedgerHarness();
  reviewer = await h.createOperator('REVIEWER');
  const connector = await h.ops('POST', '/operators', {
    email: `connector-${randomUUID()}@kasa.test`,
    name: 'Bank feed',
    role: 'CONNECTOR',
  });
  expect(connector.status).toBe(201);
  const issued = await h.ops('POST', `/operators/${connector.body.operatorId as string}/tokens`, { label: 'bank feed' });
  expect(issued.status).toBe(201);
  connectorToken = issued.body.token as string;
});
afterAll(async () => {
  await h?.stop();
});

const guarded = OPS_ROUTES.filter((route) => route.role !== 'PUBLIC');
const adminOnly = OPS_ROUTES.filter((route) => route.role === 'ADMIN' || route.role === 'CONNECTOR_OR_ADMIN');
const notConnectors = guarded.filter((route) => route.role !== 'CONNECTOR_OR_ADMIN');
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

  it.each(notConnectors.map((route) => [routeKey(route), route] as const))('%s refuses a bank connector with 403', async (_name, route) => {
    const response = await h.ops(route.method, concrete(route), bodyFor(route), connectorToken);
    expect(response.status).toBe(403);
    expect(response.body.error).toBe('forbidden');
  });

  it('has routes a bank connector may call, each for an admin too', () => {
    const connectorRoutes = guarded.filter((route) => route.role === 'CONNECTOR_OR_ADMIN').map(routeKey);
    expect(connectorRoutes).toEqual(['POST /receiving-accounts/:accountId/lines']);
  });

  it('lets login through without a token (the one public route)', async () => {
    const response = await h.ops('POST', '/login', {}, '');
    expect(response.status).toBe(400);
  });
});
