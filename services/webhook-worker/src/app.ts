import express, { type Express } from 'express';
import type { Registry } from 'prom-client';
import { schemaReadiness } from '@kasa/db';
import { operationalRoutes } from '@kasa/http';
import { queuePrefix } from '@kasa/queue';
import { redisFailureKind, redisReadinessProbe } from '@kasa/redis';
import type { WorkerDeps } from './worker-deps.js';

/** The worker's small HTTP face: GET /healthz, /readyz (PostgreSQL, Redis, schema current, consumer running), /metrics. */
export function createApp(deps: WorkerDeps, registry: Registry, isConsuming: () => boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    operationalRoutes(registry, {
      postgres: async () => {
        await deps.pool.query('SELECT 1');
      },
      // Required: without its queue the worker does nothing. Keyed, in the queue's own slot (PING is not keyed).
      redis: {
        probe: redisReadinessProbe(deps.queueConnection, [`${queuePrefix(deps.config.redisPrefix)}:readyz`]),
        misconfigured: (error) => redisFailureKind(error) === 'misconfigured',
      },
      // Not ready until the migrate step has applied every migration this build ships.
      schema: schemaReadiness(deps.pool),
      consumer: () => (isConsuming() ? Promise.resolve() : Promise.reject(new Error('the queue consumer is not running'))),
    }),
  );
  return app;
}
