import express, { type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import type { LedgerDeps } from '../ledger-deps.js';
import { internalAuth } from '../shared/http-guards.js';
import { resolveApiKey } from './resolve-api-key.use-case.js';

/** `POST /internal/v1/auth/resolve`: the gateway asks which site an API key (by hash) belongs to. */
export function apiKeyAuthRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(internalAuth(deps.config.internalToken));

  router.post('/auth/resolve', jsonBody, async (req, res) => {
    const { keyHash, slug } = parseRequest('resolveApiKey', req.body);
    const principal = await resolveApiKey(deps, keyHash, slug);
    if (!principal) throw new AppError('unauthorized', 'The API key is not valid.');
    res.json(principal);
  });

  return router;
}
