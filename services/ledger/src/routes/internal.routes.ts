import express, { type Router } from 'express';
import { AppError, jsonBody } from '@kasa/http';
import type { DepositStatus, WithdrawalStatus } from '@kasa/db';
import { toDepositListItem, toDepositRecord, toWithdrawalListItem, toWithdrawalRecord } from '../domain/records.js';
import type { LedgerDeps } from '../ledger-deps.js';
import { createDeposit } from '../use-cases/create-deposit.use-case.js';
import { createWithdrawal } from '../use-cases/create-withdrawal.use-case.js';
import { listPage, type ListQuery } from '../use-cases/list-records.use-case.js';
import { resolveApiKey } from '../use-cases/resolve-api-key.use-case.js';
import { assertValid, internalAuth, isUuid } from './guards.js';

interface CreateEnvelope<T> {
  idempotencyKey: string;
  fingerprint: string;
  request: T;
}

function envelope<T>(body: unknown): CreateEnvelope<T> {
  const value = body as Partial<CreateEnvelope<T>>;
  if (typeof value.idempotencyKey !== 'string' || typeof value.fingerprint !== 'string' || !/^[0-9a-f]{64}$/.test(value.fingerprint)) {
    throw AppError.validation([{ field: 'idempotencyKey', message: 'envelope is incomplete' }]);
  }
  return value as CreateEnvelope<T>;
}

/**
 * The gateway-facing API. The gateway has already authenticated the partner; it passes the site id in the
 * path. Every read is scoped by that site id, so another site's record answers exactly like a missing one.
 */
export function internalRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));

  router.post('/auth/resolve', jsonBody, async (req, res) => {
    const { keyHash, slug } = req.body as { keyHash?: unknown; slug?: unknown };
    if (typeof keyHash !== 'string' || !/^[0-9a-f]{64}$/.test(keyHash) || typeof slug !== 'string') {
      throw AppError.validation([{ field: 'keyHash', message: 'must be a SHA-256 hex digest' }]);
    }
    const principal = await resolveApiKey(deps, keyHash, slug);
    if (!principal) throw new AppError('unauthorized', 'The API key is not valid.');
    res.json(principal);
  });

  router.post('/sites/:siteId/deposits', jsonBody, async (req, res) => {
    const { idempotencyKey, fingerprint, request } = envelope<Parameters<typeof createDeposit>[1]['body']>(req.body);
    assertValid('createDeposit', request);
    const result = await createDeposit(deps, { siteId: req.params.siteId as string, idempotencyKey, fingerprint, body: request });
    res.status(201).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  });

  router.post('/sites/:siteId/withdrawals', jsonBody, async (req, res) => {
    const { idempotencyKey, fingerprint, request } = envelope<Parameters<typeof createWithdrawal>[1]['body']>(req.body);
    assertValid('createWithdrawal', request);
    const result = await createWithdrawal(deps, { siteId: req.params.siteId as string, idempotencyKey, fingerprint, body: request });
    res.status(201).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  });

  router.get('/sites/:siteId/intents/:intentId', async (req, res) => {
    const { siteId, intentId } = req.params as { siteId: string; intentId: string };
    // A malformed id goes through the same query path as a well-formed one, so timing reveals nothing.
    const row = await deps.deposits.findInSite(siteId, isUuid(intentId) ? intentId : '00000000-0000-0000-0000-000000000000');
    if (!row) throw new AppError('not_found', 'No deposit intent with this id.');
    res.json(toDepositRecord(row));
  });

  router.get('/sites/:siteId/withdrawals/:withdrawalId', async (req, res) => {
    const { siteId, withdrawalId } = req.params as { siteId: string; withdrawalId: string };
    const row = await deps.withdrawals.findInSite(siteId, isUuid(withdrawalId) ? withdrawalId : '00000000-0000-0000-0000-000000000000');
    if (!row) throw new AppError('not_found', 'No withdrawal with this id.');
    res.json(toWithdrawalRecord(row));
  });

  router.get('/sites/:siteId/intents', async (req, res) => {
    const page = await listPage(
      {
        name: 'intents',
        schema: 'listIntents',
        fetch: (siteId, statuses, window) => deps.deposits.list(siteId, statuses as DepositStatus[] | undefined, window),
        toItem: toDepositListItem,
      },
      deps.cursors,
      req.params.siteId as string,
      req.query as ListQuery,
    );
    res.json(page);
  });

  router.get('/sites/:siteId/withdrawals', async (req, res) => {
    const page = await listPage(
      {
        name: 'withdrawals',
        schema: 'listWithdrawals',
        fetch: (siteId, statuses, window) => deps.withdrawals.list(siteId, statuses as WithdrawalStatus[] | undefined, window),
        toItem: toWithdrawalListItem,
      },
      deps.cursors,
      req.params.siteId as string,
      req.query as ListQuery,
    );
    res.json(page);
  });

  return router;
}

