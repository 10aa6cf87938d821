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
import { redisFailureKind, redisReadinessProbe } from '@kasa/redis';
import type { GatewayDeps } from './gateway-deps.js';
import { gatewayMetrics } from './gateway-metrics.js';
import { buildOpenApiDocument, PARTNER_BASE_PATH, type Principal } from '@kasa/contracts';
import { depositPageRoutes } from './deposit-page/deposit-page.routes.js';
import { partnerRoutes } from './partner-api/partner.routes.js';

/** The public edge: the partner API under /api/v1/external, health and metrics. */
export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // Client addresses (per-address limits, access log) come from trusted proxies only: TRUST_PROXY, none by default.
  app.set('trust proxy', deps.config.trustProxy);
  // Repeated query parameters stay arrays and fail validation instead of being silently merged.
  app.set('query parser', 'simple');
  const metrics = createHttpMetrics('gateway');
  app.use(
    helmet({
      // The gateway's only page is the hosted deposit page: its own script and stylesheet, and status polls
      // to its own origin. Nothing inline, no forms, no frames; the API's JSON needs none of it either.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          connectSrc: ["'self'"],
          baseUri: ["'none'"],
          // The page's one form ("I have sent the transfer") posts to its own origin.
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          // Upgrading sub-requests to https only makes sense when the page itself is served over https.
          ...(deps.config.publicBaseUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      // The SPEC's popup pattern: the partner's page opens the deposit page in a popup and keeps its handle to
      // see it load and to close it. `same-origin` would sever that handle; framing stays refused by
      // frame-ancestors 'none' and X-Frame-Options DENY.
      crossOriginOpenerPolicy: { policy: 'unsafe-none' },
      xFrameOptions: { action: 'deny' },
    }),
  );
  app.use(requestId);
  // The site is the API key's, once authentication has set the principal; never the key itself.
  app.use(accessLog(deps.logger, { siteOf: ({ res }) => (res.locals.principal as Principal | undefined)?.siteId }));
  app.use(noStore);
  app.use(metrics.middleware);
  app.use(gatewayMetrics(metrics.registry));
  app.use(rejectHostileUrl);
  app.use(
    operationalRoutes(metrics.registry, {
      // Optional while merely down (the gateway keeps answering, 503 where a request needs it); a Redis that
      // answers with a misconfiguration (MOVED from a plain client on a cluster, NOAUTH, ...) fails readiness.
      redis: {
        probe: redisReadinessProbe(deps.redis, [`${deps.redisPrefix}:readyz`]),
        optional: true,
        misconfigured: (error) => redisFailureKind(error) === 'misconfigured',
      },
      ledger: async () => {
        await deps.ledger.request('GET', '/readyz', 'readiness-probe');
      },
    }),
  );
  // The contract, public like any API reference; built once.
  const openApi = JSON.stringify(buildOpenApiDocument(deps.config.publicBaseUrl));
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openApi);
  });
  // Browsers ask for it on every page; an empty answer keeps 404s out of their consoles.
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  app.use('/deposit', depositPageRoutes(deps));
  app.use(PARTNER_BASE_PATH, canonicalUuidPath, partnerRoutes(deps));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
