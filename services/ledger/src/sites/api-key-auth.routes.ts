import { type RequestHandler, type Router } from 'express';
import { parseRequest } from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import { internalRouter } from '../shared/internal-route.js';
import { resolveApiKey } from './resolve-api-key.use-case.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type ApiKeyAuthRoutesDeps = Parameters<typeof resolveApiKey>[0] & {
  config: KasaConfig;
};

/** `resolveApiKey` of the internal table: the gateway asks which site an API key (by hash) belongs to. */
export function apiKeyAuthRoutes(deps: ApiKeyAuthRoutesDeps): Router {
  const resolve: RequestHandler = async (req, res) => {
    const { keyHash, slug } = parseRequest('resolveApiKey', req.body);
    const principal = await resolveApiKey(deps, keyHash, slug);
    if (!principal) throw new AppError('unauthorized', 'The API key is not valid.');
    res.json(principal);
  };

  return internalRouter(deps.config.internalToken, [{ operation: 'resolveApiKey', handlers: [jsonBody, resolve] }]);
}
