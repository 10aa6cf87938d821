import express, { type Express } from 'express';
import helmet from 'helmet';
import {
  accessLog,
  canonicalUuidPath,
  createHttpMetrics,
  errorHandler,
  noStore,
  notFound,
  operationalRoutes,
  rejectHostileUrl,
  requestId,
} from '@kasa/http';
import { buildOpsOpenApiDocument, INTERNAL_PREFIX } from '@kasa/contracts';
import { schemaReadiness } from '@kasa/db';
import { queuePrefix } from '@kasa/queue';
import { redisFailureKind, redisReadinessProbe } from '@kasa/redis';
import type { LedgerDeps } from './ledger-deps.js';
import { registerLedgerMetrics } from './ledger-metrics.js';
import { internalSiteOf } from './shared/http-guards.js';
import { internalRouteTable } from './internal-routes.js';
import { deskQueuesOf, RECORD_KINDS } from './record-kinds.js';
import { statementOpsRoutes } from './bank-transfers/statements-ops.routes.js';
import { reconciliationOpsRoutes } from './reconciliation/reconciliation-ops.routes.js';
import { depositPageRoutes } from './deposits/deposit-page.routes.js';
import { erasureOpsRoutes } from './erasure/erasure-ops.routes.js';
import { depositHotRoutes, depositRoutes } from './deposits/deposits.routes.js';
import { eventOpsRoutes } from './events/events-ops.routes.js';
import { eventRoutes } from './events/events.routes.js';
import { sandboxRoutes } from './sandbox/sandbox.routes.js';
import { depositPageSimulationRoutes } from './sandbox/deposit-page-simulation.routes.js';
import { balanceRoutes } from './journal/balance.routes.js';
import { journalOpsRoutes } from './journal/journal-ops.routes.js';
import { auditOpsRoutes } from './operators/audit-ops.routes.js';
import { sealsOpsRoutes } from './history/seals-ops.routes.js';
import { searchOpsRoutes } from './search/search-ops.routes.js';
import { deskOpsRoutes } from './desk/desk-ops.routes.js';
import { payoutOpsRoutes } from './payouts/payouts-ops.routes.js';
import { riskOpsRoutes } from './risk/risk-ops.routes.js';
import { screeningOpsRoutes } from './screening/screening-ops.routes.js';
import { operatorAuth } from './operators/operator-auth.js';
import { siteScopeGuard } from './operators/site-scope.guard.js';
import { opsLoginRoutes, opsOperatorRoutes } from './operators/operators-ops.routes.js';
import { auditRefusals } from './operators/refusal-audit.js';
import { secondFactorGate } from './operators/second-factor.guard.js';
import { secondFactorOpsRoutes } from './operators/second-factor-ops.routes.js';
import { apiKeyAuthRoutes } from './sites/api-key-auth.routes.js';
import { siteOpsRoutes } from './sites/sites-ops.routes.js';
import { webhookConfigRoutes } from './sites/webhook-config.routes.js';
import { testWebhookOpsRoutes, testWebhookRoutes } from './sites/test-webhook.routes.js';
import { withdrawalHotRoutes, withdrawalRoutes } from './withdrawals/withdrawals.routes.js';

/** The ledger's HTTP app: internal API for the gateway, ops API for operators, health and metrics. */
export function createApp(deps: LedgerDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // No ETag: nothing caches these answers, and hashing every list page costs CPU on the hot path.
  app.disable('etag');
  const metrics = createHttpMetrics('ledger');
  registerLedgerMetrics(metrics.registry, deps);
  // The gateway's hot calls first, with only the middleware they need; everything else takes the chain below.
  app.use(internalRouteTable([...depositHotRoutes(deps), ...withdrawalHotRoutes(deps)], { logger: deps.logger, metrics }));
  // Only the ops API may ever be opened from a browser; the gateway-facing internal API needs no browser headers.
  app.use('/ops', helmet());
  app.use(requestId);
  app.use(accessLog(deps.logger, { siteOf: internalSiteOf }));
  app.use(noStore);
  app.use(metrics.middleware);
  app.use(rejectHostileUrl);
  app.use(['/internal', '/ops'], canonicalUuidPath);
  app.use(
    operationalRoutes(metrics.registry, {
      postgres: async () => {
        await deps.db.$queryRaw`SELECT 1`;
      },
      // Optional while merely down (partner creates and reviews need PostgreSQL only; the outbox relay catches
      // up later); a Redis that answers with a misconfiguration (MOVED, NOAUTH, READONLY, ...) fails readiness.
      redis: {
        probe: redisReadinessProbe(deps.redis, [`${deps.redisPrefix}:readyz`, `${queuePrefix(deps.redisPrefix)}:readyz`]),
        optional: true,
        misconfigured: (error) => redisFailureKind(error) === 'misconfigured',
      },
      // Not ready until the migrate step has applied every migration this build ships (docs/operations.md).
      schema: schemaReadiness(deps.pool),
    }),
  );
  // The gateway's internal API: each router serves its operations at the paths of the table (INTERNAL_ROUTES), the
  // most called first.
  app.use(
    INTERNAL_PREFIX,
    apiKeyAuthRoutes(deps),
    depositRoutes(deps),
    withdrawalRoutes(deps),
    eventRoutes(deps),
    webhookConfigRoutes(deps),
    testWebhookRoutes(deps),
    balanceRoutes(deps),
    sandboxRoutes(deps),
    depositPageRoutes(deps),
    depositPageSimulationRoutes(deps),
  );
  // The ops API's contract, readable without a token like the partner document on the gateway; built once.
  const opsOpenApi = JSON.stringify(buildOpsOpenApiDocument(deps.config.ledgerUrl));
  app.get('/ops/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(opsOpenApi);
  });
  // Login and the document above are the only unauthenticated ops routes; every other /ops/v1 request is resolved to an operator
  // (or refused 401) once here, before any ops router runs.
  app.use('/ops/v1', opsLoginRoutes(deps));
  app.use('/ops/v1', operatorAuth(deps), secondFactorGate(), siteScopeGuard(deps));
  app.use('/ops/v1', siteOpsRoutes(deps));
  app.use(
    '/ops/v1',
    opsOperatorRoutes(deps),
    secondFactorOpsRoutes(deps),
    // The reviewed records' routers, one per kind (record-kinds.ts).
    ...RECORD_KINDS.map((kind) => kind.opsRoutes(deps)),
    statementOpsRoutes(deps),
    reconciliationOpsRoutes(deps),
    journalOpsRoutes(deps),
    auditOpsRoutes(deps),
    sealsOpsRoutes(deps),
    searchOpsRoutes(deps),
    deskOpsRoutes(deps, deskQueuesOf(deps)),
    payoutOpsRoutes(deps),
    eventOpsRoutes(deps),
    testWebhookOpsRoutes(deps),
    screeningOpsRoutes(deps),
    riskOpsRoutes(deps),
    erasureOpsRoutes(deps),
  );
  // An operator's refused request (403, four-eyes) is written into the audit log before its problem is answered.
  app.use('/ops/v1', auditRefusals(deps));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
