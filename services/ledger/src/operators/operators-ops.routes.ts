import { isIP } from 'node:net';
import express, { type Request, type Router } from 'express';
import { AppError } from '@kasa/http';
import { constantTimeEqual } from '../shared/secrets.js';
import { isAdmin } from '../shared/operator-principal.js';
import { principalOf } from '../shared/operator-principal.js';
import { createOperator, disableOperator, issueOperatorToken, login, revokeOperatorToken, setOperatorScope } from './operators.use-case.js';
import { operatorView, tokenView } from './operator.views.js';
import { isUuid } from '../shared/http-guards.js';
import { opsOperation } from '../shared/ops-route.js';
import type { KasaConfig } from '@kasa/config';
import type { OperatorRepository } from './operator.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type OperatorsOpsRoutesDeps = Parameters<typeof login>[0] & {
  config: KasaConfig;
  operators: OperatorRepository;
};

/** Where the console puts the browser's address when it logs an operator in on their behalf. */
export const CLIENT_ADDRESS_HEADER = 'x-kasa-client-address';

/**
 * The address login attempts are counted against: the socket's, unless the caller proves with the internal
 * token that it is the console and names the browser's address. Anyone else's header is ignored, so it
 * cannot be used to dodge the per-address allowances.
 */
function loginClientAddress(req: Request, internalToken: string): string {
  const forwarded = req.get(CLIENT_ADDRESS_HEADER);
  const token = req.get('x-internal-token');
  if (forwarded !== undefined && token && constantTimeEqual(token, internalToken)) {
    if (isIP(forwarded) === 0) throw AppError.validation([{ field: CLIENT_ADDRESS_HEADER, message: 'must be an IP address' }]);
    return forwarded;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/** `POST /ops/v1/login`: the one ops route without a bearer token (mounted before the auth guard). */
export function opsLoginRoutes(deps: OperatorsOpsRoutesDeps): Router {
  const router = express.Router();
  opsOperation(
    router,
    'login',
  )(async ({ body }, req) => login(deps, { ...body, clientAddress: loginClientAddress(req, deps.config.internalToken) }));
  return router;
}

/** Operator accounts and tokens: who may act, and with which credentials. */
export function opsOperatorRoutes(deps: OperatorsOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(
    router,
    'whoAmI',
  )((_input, _req, res) => {
    const { operatorId, role, tokenId, email, secondFactor, secondFactorAt, siteIds } = principalOf(res.locals);
    return {
      operatorId,
      role,
      tokenId,
      email,
      secondFactor: secondFactor ?? 'OFF',
      secondFactorAt: secondFactorAt?.toISOString() ?? null,
      siteIds: [...(siteIds ?? [])],
    };
  });

  opsOperation(
    router,
    'logout',
  )(async (_input, _req, res) => {
    const caller = principalOf(res.locals);
    if (!caller.tokenId) throw AppError.conflict('bootstrap_token', 'The bootstrap token is configuration and cannot be logged out.');
    return revokeOperatorToken(deps, caller, caller.tokenId);
  });

  opsOperation(router, 'createOperator')(async ({ body }, _req, res) => createOperator(deps, principalOf(res.locals), body));

  opsOperation(router, 'listOperators')(async () => ({ data: (await deps.operators.list()).map(operatorView) }));

  opsOperation(router, 'setOperatorScope', { invalidBody: 'The scope is not valid; nothing was changed.' })(
    async ({ params: { operatorId }, body: { siteIds } }, _req, res) => {
      if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
      return setOperatorScope(deps, principalOf(res.locals), operatorId, [...siteIds]);
    },
  );

  opsOperation(
    router,
    'disableOperator',
  )(async ({ params: { operatorId } }, _req, res) => {
    if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
    return disableOperator(deps, principalOf(res.locals), operatorId);
  });

  opsOperation(
    router,
    'issueOperatorToken',
  )(async ({ params: { operatorId }, body }, _req, res) => {
    if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
    return issueOperatorToken(deps, principalOf(res.locals), operatorId, body ?? {});
  });

  opsOperation(
    router,
    'listOperatorTokens',
  )(async ({ params: { operatorId } }, _req, res) => {
    const caller = principalOf(res.locals);
    if (!isAdmin(caller) && caller.operatorId !== operatorId)
      throw new AppError('forbidden', "Only an admin may list another operator's tokens.");
    if (!isUuid(operatorId)) throw new AppError('not_found', 'No operator with this id.');
    return { data: (await deps.operators.listTokens(operatorId)).map(tokenView) };
  });

  opsOperation(
    router,
    'revokeOperatorToken',
  )(async ({ params: { tokenId } }, _req, res) => {
    if (!isUuid(tokenId)) throw new AppError('not_found', 'No operator token with this id.');
    return revokeOperatorToken(deps, principalOf(res.locals), tokenId);
  });

  return router;
}
