import express, { type Router } from 'express';
import { sandboxRoutes } from '../sandbox/sandbox.routes.js';
import { fingerprintOf, LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import { authenticate } from '../auth/authenticate.js';
import { idempotencyKeyOf } from '../idempotency/idempotency.js';
import { eventRoutes } from '../events/events.routes.js';
import { partnerRoute } from './partner-route.js';
import { sendStored, siteOf } from './respond.js';
import { searchOf } from './search-params.js';
import { webhookConfigRoutes } from '../webhook-config/webhook-config.routes.js';

/** Endpoints 1 to 6 of docs/api.md (Endpoints): authenticate, rate-limit, validate, then hand over to the ledger. */
export function partnerRoutes(deps: GatewayDeps): Router {
  const router = express.Router();
  router.use(authenticate(deps));

  // The ledger's record of (site, key) decides a create's idempotency: it replays, refuses another body (422) or a key
  // still in flight (409). So by default a create sends Redis only its rate count. IDEMPOTENCY_LOST_RECORD_GUARD (a write
  // database with asynchronous replicas) also has the gateway remember each key in Redis, so a retry of a create a
  // failover lost is refused (409 idempotency_record_lost) rather than created again; `route` then names the key's
  // scope, and a deposit's answer, whose page link is a capability, is kept there only as "done".
  const guard = deps.config.idempotencyLostRecordGuard;
  const create = (operationId: 'createDeposit' | 'createWithdrawal', route: 'deposits' | 'withdrawals', parse: (body: unknown) => object) =>
    partnerRoute(router, operationId, jsonBody, async (req, res) => {
      const key = idempotencyKeyOf(req.get('idempotency-key'));
      const body = parse(req.body);
      const fingerprint = fingerprintOf(body);
      const forward = (answeredBefore: boolean) =>
        deps.ledger.call(operationId, siteOf(res), req.requestId, {
          body: { idempotencyKey: key, fingerprint, request: body, ...(answeredBefore ? { answeredBefore } : {}) },
        });
      const result = guard
        ? await deps.idempotency.run(
            { siteId: res.locals.principal.siteId, route, key, fingerprint },
            forward,
            route === 'deposits' ? 'fingerprint' : 'answer',
          )
        : await forward(false);
      sendStored(res, result);
    });
  const CREATE_INVALID = 'The request body is not valid; nothing was created.';
  create('createDeposit', 'deposits', (body) => parseRequest('createDeposit', body, CREATE_INVALID));
  create('createWithdrawal', 'withdrawals', (body) => parseRequest('createWithdrawal', body, CREATE_INVALID));

  partnerRoute(router, 'getIntent', async (req, res) => {
    const intentId = pathParam(req, 'intentId');
    sendStored(res, await deps.ledger.call('getIntent', { ...siteOf(res), intentId }, req.requestId));
  });
  partnerRoute(router, 'getWithdrawal', async (req, res) => {
    const withdrawalId = pathParam(req, 'withdrawalId');
    sendStored(res, await deps.ledger.call('getWithdrawal', { ...siteOf(res), withdrawalId }, req.requestId));
  });

  const list = (
    operationId: 'listIntents' | 'listWithdrawals' | 'listBalanceTransactions',
    parse: (query: unknown) => Record<string, string | undefined>,
  ) =>
    partnerRoute(router, operationId, async (req, res) => {
      const query = searchOf(parse(req.query));
      sendStored(res, await deps.ledger.call(operationId, siteOf(res), req.requestId, { query }));
    });
  list('listIntents', (query) => parseRequest('listIntents', query, LIST_FILTERS_INVALID));
  list('listWithdrawals', (query) => parseRequest('listWithdrawals', query, LIST_FILTERS_INVALID));

  partnerRoute(router, 'getBalance', async (req, res) => {
    sendStored(res, await deps.ledger.call('getBalance', siteOf(res), req.requestId));
  });
  list('listBalanceTransactions', (query) => parseRequest('listBalanceTransactions', query, LIST_FILTERS_INVALID));
  // Before `/balance-statements/:date`, which would take `keys` for a day.
  partnerRoute(router, 'getBalanceStatementKeys', async (req, res) => {
    sendStored(res, await deps.ledger.call('getBalanceStatementKeys', siteOf(res), req.requestId));
  });
  partnerRoute(router, 'getBalanceStatement', async (req, res) => {
    const date = pathParam(req, 'date');
    sendStored(res, await deps.ledger.call('getBalanceStatement', { ...siteOf(res), date }, req.requestId));
  });

  router.use(webhookConfigRoutes(deps));
  router.use(eventRoutes(deps));
  router.use(sandboxRoutes(deps));

  return router;
}
