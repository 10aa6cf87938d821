import type { RequestHandler } from 'express';
import { AppError } from '@kasa/http';
import { constantTimeEqual, secretMatcher } from './secrets.js';
import type { Actor } from './audit.repository.js';
import type { OperatorPrincipal } from './operator-principal.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
      actor?: Actor;
      /** Set by the operator auth guard (operators/operator-auth.ts) on every /ops/v1 request. */
      operator?: OperatorPrincipal;
    }
  }
}

function bearer(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? (match[1] as string) : null;
}

/**
 * Requests a guard has let in, with the token it checked: each internal router guards itself, and a request
 * reaching the deposit routes passes through two or three of them; the first one's check (a hash of the
 * header) is enough for the others holding the same token.
 */
const internalAccepted = new WeakMap<object, string>();

/** The gateway's calls carry the shared INTERNAL_TOKEN. */
export function internalAuth(token: string): RequestHandler {
  const matches = secretMatcher(token);
  return (req, _res, next) => {
    if (internalAccepted.get(req) === token) return next();
    const given = req.get('x-internal-token');
    if (!given || !matches(given)) return next(new AppError('unauthorized', 'Internal token missing or wrong.'));
    internalAccepted.set(req, token);
    next();
  };
}

/**
 * Ops API guard for a router. The app authenticates every `/ops/v1` request once with real operator tokens
 * (operators/operator-auth.ts, mounted in app.ts), so a request that reaches a router is normally already
 * resolved and passes straight through; the bootstrap check here keeps a router safe if it is ever mounted
 * without that guard.
 */
export function opsAuth(bootstrapToken: string): RequestHandler {
  return (req, res, next) => {
    if (res.locals.operator) {
      next();
      return;
    }
    const token = bearer(req.get('authorization'));
    if (token && constantTimeEqual(token, bootstrapToken)) {
      res.locals.actor = { type: 'OPERATOR', id: 'bootstrap' };
      res.locals.operator = { operatorId: 'bootstrap', role: 'ADMIN', tokenId: null, email: null };
      next();
      return;
    }
    next(new AppError('unauthorized', 'Send an operator token as Authorization: Bearer <token>.'));
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

/** Looked up in place of a malformed id, so a malformed id takes the same query path (and time) as a real one. */
export const NO_SUCH_ID = '00000000-0000-0000-0000-000000000000';

/** A path id as a lookup key: itself when it is a UUID, otherwise {@link NO_SUCH_ID}. */
export const lookupId = (value: string): string => (isUuid(value) ? value : NO_SUCH_ID);

/** The record a path id names, looked up only when the id is a UUID; a malformed or unknown id is 404 `not_found`. */
export async function foundOr404<Row>(id: string, find: (id: string) => Promise<Row | null>, notFound: string): Promise<Row> {
  const row = isUuid(id) ? await find(id) : null;
  if (!row) throw new AppError('not_found', notFound);
  return row;
}

/**
 * The site a request acts for, for the access log: the `:siteId` of the internal API's path (the gateway
 * has authenticated the partner as that site), when it is a UUID; none for the ops API and the probes.
 */
export function internalSiteOf(request: { route: string; params: Record<string, string> }): string | undefined {
  const siteId = request.params.siteId;
  return request.route.startsWith('/internal/') && siteId !== undefined && isUuid(siteId) ? siteId : undefined;
}
