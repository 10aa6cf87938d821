/**
 * Every route the ledger serves under `/ops/v1`, with who may call it, read from the contracts' route table
 * (packages/contracts/src/ops-routes.ts): an operation added there is guard-tested by ops-route-guards.test.ts
 * without a line here, and that test fails when the app serves an ops route the table does not name, or the
 * table names one the app does not serve.
 */
import { opsRouteList, type OpsRouteSpec } from '@kasa/contracts';
import type { Express } from 'express';

export interface OpsRoute extends OpsRouteSpec {
  /** The table's name of the operation; null for the ops API's own document. */
  operationId: string | null;
  /** The path names one site (`:siteId`). */
  siteScoped: boolean;
}

export const OPS_ROUTES: readonly OpsRoute[] = opsRouteList().map((route) => ({ ...route, siteScoped: route.path.includes(':siteId') }));

/** `METHOD /path`, the form routes are compared and named in. */
export const routeKey = (r: { method: string; path: string }): string => `${r.method} ${r.path}`;

/** The parts of an Express 5 (router 2) layer this walk reads; the public types do not describe them. */
interface Layer {
  rawPath?: unknown;
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
}

/** Every `METHOD /path` an Express app registers, nested routers included. */
export function registeredRoutes(app: Express): Array<{ method: string; path: string }> {
  const found: Array<{ method: string; path: string }> = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = layer.route.path === '/' && prefix ? prefix : `${prefix}${layer.route.path}`;
        for (const method of Object.keys(layer.route.methods)) found.push({ method: method.toUpperCase(), path });
      } else if (layer.handle.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, `${prefix}${mount}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return found;
}
