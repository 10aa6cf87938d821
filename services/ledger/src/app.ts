import express, { type Express } from 'express';
import helmet from 'helmet';
import { createHttpMetrics, errorHandler, notFound, operationalRoutes, requestId } from '@kasa/http';
import type { LedgerDeps } from './ledger-deps.js';
import { internalRoutes } from './routes/internal.routes.js';
import { opsRoutes } from './routes/ops.routes.js';

/** The ledger's HTTP app: internal API for the gateway, ops API for operators, health and metrics. */
export function createApp(deps: LedgerDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const metrics = createHttpMetrics('ledger');
  app.use(helmet());
  app.use(requestId);
  app.use(metrics.middleware);
  app.use(
    operationalRoutes(metrics.registry, {
      postgres: async () => {
        await deps.db.$queryRaw`SELECT 1`;
      },
      redis: async () => {
        await deps.redis.ping();
      },
    }),
  );
  app.use('/internal/v1', internalRoutes(deps));
  app.use('/ops/v1', opsRoutes(deps));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
