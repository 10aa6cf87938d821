import type { RequestHandler, Router } from 'express';
import express from 'express';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
}

/** A registry per app (tests build several apps in one process) with default and HTTP metrics. */
export function createHttpMetrics(service: string): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    let route: string | undefined;
    // Express sets `req.route` just before a route's handlers run, while `req.baseUrl` still holds the mount
    // path; by the time the response finishes the mount is unwound. Capture the template at that moment.
    let current: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set: (value: { path?: unknown } | undefined) => {
        current = value;
        if (value && typeof value.path === 'string') route = routeTemplate(req.baseUrl, value.path, req.params);
      },
    });
    res.on('finish', () => {
      end({ method: req.method, route: route ?? 'unmatched', status: String(res.statusCode) });
    });
    next();
  };
  return { registry, middleware };
}

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A route's label, never a raw path: the mount path with its parameter values put back as `:name` (and any
 * UUID as `:id`), then the route's own template. Requests that match no route are all `unmatched`, so
 * no request can add a label value of its own.
 */
export function routeTemplate(baseUrl: string, routePath: string, params: Record<string, string | string[] | undefined>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') names.set(value, name);
  const mount = baseUrl
    .split('/')
    .map((segment) => {
      const name = names.get(segment) ?? names.get(safeDecode(segment));
      if (name !== undefined && segment !== '') return `:${name}`;
      return UUID_SEGMENT.test(segment) ? ':id' : segment;
    })
    .join('/');
  return `${mount}${routePath === '/' && mount !== '' ? '' : routePath}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export type ReadinessCheck = () => Promise<void>;

/** GET /healthz (process up), GET /readyz (every dependency answers), GET /metrics (Prometheus). */
export function operationalRoutes(registry: Registry, checks: Record<string, ReadinessCheck>): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const results: Record<string, string> = {};
    let ready = true;
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check(), 2000);
          results[name] = 'ok';
        } catch {
          ready = false;
          results[name] = 'unavailable';
        }
      }),
    );
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: results });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
