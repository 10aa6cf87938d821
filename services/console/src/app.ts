import express, { type Express } from 'express';
import helmet from 'helmet';
import { accessLog, createHttpMetrics, operationalRoutes, requestId } from '@kasa/http';
import { assetRoutes } from './assets.routes.js';
import type { ConsoleDeps } from './console-deps.js';
import { consoleErrorHandler, notFoundPage } from './errors.js';
import { languageRoutes, localeMiddleware } from './i18n/locale.js';
import { csvExportRoutes } from './pages/csv-export.routes.js';
import { secondFactorRoutes } from './pages/second-factor.page.js';
import { auditRoutes } from './pages/audit.page.js';
import { balanceRoutes } from './pages/balances.page.js';
import { dashboardRoutes } from './pages/dashboard.page.js';
import { deliveryRoutes } from './pages/deliveries.page.js';
import { payoutRoutes } from './pages/payouts.page.js';
import { screeningRoutes } from './pages/screening.page.js';
import { riskFlagRoutes } from './pages/risk-flags.page.js';
import { multipartUpload } from './pages/multipart.js';
import { searchRoutes } from './pages/search.page.js';
import { statementRoutes } from './pages/statements.page.js';
import { reconciliationRoutes } from './pages/reconciliation.page.js';
import { receivingAccountRoutes } from './pages/receiving-accounts.page.js';
import { recordRoutes } from './pages/record-pages.js';
import { erasureRoutes } from './pages/erasure.page.js';
import { loginRoutes } from './pages/login.page.js';
import { reviewQueueRoutes } from './pages/review-queue.page.js';
import { bulkApproveRoutes } from './pages/bulk-approve.page.js';
import { liveCountRoutes } from './pages/live-counts.routes.js';
import { siteKeyRoutes } from './pages/site-keys.page.js';
import { siteRoutes } from './pages/sites.page.js';
import { siteSettingsRoutes } from './pages/site-settings.page.js';
import { siteTestWebhookRoutes } from './pages/site-test-webhook.page.js';
import { loadSession, requireOperator, verifyCsrf } from './session/session.middleware.js';

/** The operator console: server-rendered pages over the ledger's ops API, health and metrics. */
export function createApp(deps: ConsoleDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // Repeated parameters stay arrays, and the pages read only single strings, so they are simply ignored.
  app.set('query parser', 'simple');
  // The browser's address (login throttling) comes from trusted proxies only: TRUST_PROXY, none by default.
  app.set('trust proxy', deps.config.trustProxy);
  const metrics = createHttpMetrics('console');
  const https = deps.config.consolePublicUrl.startsWith('https:');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Our own stylesheet and script only: no inline style or script anywhere in the console.
          styleSrc: ["'self'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      frameguard: { action: 'deny' },
      strictTransportSecurity: https,
    }),
  );
  app.use(requestId);
  // Every page below speaks the operator's language and shows times in the desk's zone (i18n/).
  app.use(localeMiddleware(deps.config.consoleTimeZone));
  app.use(accessLog(deps.logger));
  app.use(metrics.middleware);
  app.use(
    operationalRoutes(metrics.registry, {
      ledger: () => deps.ledger.with({ requestId: 'console-readiness-probe' }).ready(),
    }),
  );
  app.use(assetRoutes());
  // Pages show money and personal data and carry CSRF tokens: never cached, so "back" after logout re-asks.
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  app.use(languageRoutes(https));
  app.use(loadSession(deps));
  app.use(loginRoutes(deps));
  // Everything below needs a logged-in operator, and every POST below a valid CSRF token.
  app.use(requireOperator);
  // The statement upload is the one multipart form: read here, so its _csrf field is checked like every other.
  app.use('/statements', multipartUpload);
  app.use(verifyCsrf(deps));
  app.use(
    dashboardRoutes(deps),
    searchRoutes(deps),
    // The pages of each kind of reviewed record (pages/record-pages.ts).
    ...recordRoutes(deps),
    reviewQueueRoutes(deps),
    bulkApproveRoutes(deps),
    liveCountRoutes(deps),
    payoutRoutes(deps),
    screeningRoutes(deps),
    riskFlagRoutes(deps),
    statementRoutes(deps),
    deliveryRoutes(deps),
    siteRoutes(deps),
    siteKeyRoutes(deps),
    siteSettingsRoutes(deps),
    siteTestWebhookRoutes(deps),
    balanceRoutes(deps),
    reconciliationRoutes(deps),
    receivingAccountRoutes(deps),
    erasureRoutes(deps),
    auditRoutes(deps),
    csvExportRoutes(deps),
    secondFactorRoutes(deps),
  );
  app.use(notFoundPage());
  app.use(consoleErrorHandler(deps));
  return app;
}
