import express, { type Express } from 'express';
import helmet from 'helmet';
import { canonicalUuidPath, createHttpMetrics, errorHandler, noStore, notFound, operationalRoutes, rejectHostileUrl, requestId } from '@kasa/http';
import type { LedgerDeps } from './ledger-deps.js';
import { depositPageRoutes } from './deposit-page/deposit-page.routes.js';
import { internalRoutes } from './routes/internal.routes.js';
import { opsRoutes } from './routes/ops.routes.js';
import { operatorAuth } from './operators/operator-auth.js';
import { opsBankTransferRoutes } from './routes/ops-bank-transfers.routes.js';
import { opsLedgerRoutes } from './routes/ops-ledger.routes.js';
import { opsLoginRoutes, opsOperatorRoutes } from './routes/ops-operators.routes.js';
import { opsReviewRoutes } from './routes/ops-review.routes.js';
import { eventRoutes } from './routes/events.routes.js';
import { eventOpsRoutes } from './routes/events-ops.routes.js';
import { webhookConfigRoutes } from './routes/webhook-config.routes.js';

/** The ledger's HTTP app: internal API for the gateway, ops API for operators, health and metrics. */
export function createApp(deps: LedgerDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // No ETag: nothing caches these answers, and hashing every list page costs CPU on the hot path.
  app.disable('etag');
  const metrics = createHttpMetrics('ledger');
  // Only the ops API may ever be opened from a browser; the gateway-facing internal API needs no browser headers.
  app.use('/ops', helmet());
  app.use(requestId);
  app.use(noStore);
  app.use(metrics.middleware);
  app.use(rejectHostileUrl);
  app.use(['/internal', '/ops'], canonicalUuidPath);
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
  app.use('/internal/v1/sites/:siteId/events', eventRoutes(deps));
  app.use('/internal/v1/sites/:siteId/webhook-config', webhookConfigRoutes(deps));
  app.use('/internal/v1/deposit-pages', depositPageRoutes(deps));
  app.use('/internal/v1', internalRoutes(deps));
  // Login is the only unauthenticated ops route; every other /ops/v1 request is resolved to an operator
  // (or refused 401) once here, before any ops router runs.
  app.use('/ops/v1', opsLoginRoutes(deps));
  app.use('/ops/v1', operatorAuth(deps));
  app.use('/ops/v1', opsRoutes(deps));
  app.use('/ops/v1', opsOperatorRoutes(deps), opsReviewRoutes(deps), opsBankTransferRoutes(deps), opsLedgerRoutes(deps));
  // After the ops router, so whatever authenticates operators for /ops/v1 has already run.
  app.use('/ops/v1/events', eventOpsRoutes(deps));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
