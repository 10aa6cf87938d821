import type { RequestHandler, Router } from 'express';
import express from 'express';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { routeOf, trackRoute } from './route-template.js';

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
    trackRoute(req);
    res.once('finish', () => {
      end({ method: req.method, route: routeOf(req), status: String(res.statusCode) });
    });
    next();
  };
  return { registry, middleware };
}

/**
 * A value read at scrape time for gauges computed in `collect()`: every gauge of one scrape shares one
 * read (a read still in flight is joined, never repeated, so a slow dependency is not asked again by each
 * scrape), and a read that fails or takes longer than `timeoutMs` gives null, so /metrics answers on time
 * whatever PostgreSQL or Redis are doing. Gauges report NaN (unknown) for null.
 */
export function scrapeSample<T>(load: () => Promise<T>, timeoutMs = 1_000): () => Promise<T | null> {
  let inFlight: Promise<T> | null = null;
  return () => {
    if (!inFlight) {
      const started = Promise.resolve().then(load);
      inFlight = started;
      const clear = () => {
        if (inFlight === started) inFlight = null;
      };
      started.then(clear, clear);
    }
    return withTimeout(inFlight, timeoutMs).catch(() => null);
  };
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
