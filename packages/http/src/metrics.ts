import type { RequestHandler, Router } from 'express';
import express from 'express';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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

/** A dependency readiness asks about, and what its failures mean for the service. */
export interface DependencyCheck {
  probe: ReadinessCheck;
  /**
   * The service still does useful work without it: while it is unavailable, /readyz stays 200 with
   * `status: "degraded"` and the check `unavailable`, so a dependency outage does not empty every Service.
   */
  optional?: boolean;
  /**
   * A failure that waiting will not fix (a misconfiguration): the check says `misconfigured` and readiness
   * fails, optional or not, so a rollout that points at the wrong place stops at its first pod.
   */
  misconfigured?: (error: Error) => boolean;
}

/** What /readyz reports for one check. */
export type CheckState = 'ok' | 'unavailable' | 'misconfigured';

const READINESS_TIMEOUT_MS = 2_000;

function dependencyUpGauge(registry: Registry): Gauge<'dependency'> {
  const existing = registry.getSingleMetric('kasa_dependency_up');
  if (existing) return existing as Gauge<'dependency'>;
  return new Gauge({
    name: 'kasa_dependency_up',
    help: 'Whether the last readiness probe of a dependency passed (1) or failed (0)',
    labelNames: ['dependency'],
    registers: [registry],
  });
}

async function stateOf(check: DependencyCheck): Promise<CheckState> {
  try {
    await withTimeout(check.probe(), READINESS_TIMEOUT_MS);
    return 'ok';
  } catch (error) {
    return check.misconfigured?.(error as Error) ? 'misconfigured' : 'unavailable';
  }
}

/**
 * GET /healthz (process up), GET /readyz (the dependencies answer), GET /metrics (Prometheus). /readyz is
 * 200 `ready` when every check passes, 200 `degraded` when only optional dependencies are unavailable, and
 * 503 `not_ready` otherwise; each probe also sets `kasa_dependency_up{dependency}`.
 */
export function operationalRoutes(registry: Registry, checks: Record<string, ReadinessCheck | DependencyCheck>): Router {
  const router = express.Router();
  const up = dependencyUpGauge(registry);
  const dependencies = Object.entries(checks).map(([name, check]) => ({
    name,
    check: typeof check === 'function' ? { probe: check } : check,
  }));
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const states = await Promise.all(dependencies.map(({ check }) => stateOf(check)));
    const results: Record<string, CheckState> = {};
    let ready = true;
    let degraded = false;
    dependencies.forEach(({ name, check }, index) => {
      const state = states[index] as CheckState;
      results[name] = state;
      up.set({ dependency: name }, state === 'ok' ? 1 : 0);
      if (state === 'unavailable' && check.optional) degraded = true;
      else if (state !== 'ok') ready = false;
    });
    const status = !ready ? 'not_ready' : degraded ? 'degraded' : 'ready';
    res.status(ready ? 200 : 503).json({ status, checks: results });
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
