import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { accessLog, AppError, errorHandler, noStore, requestId, type HttpMetrics } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { INTERNAL_PREFIX as MOUNT, INTERNAL_ROUTES } from '@kasa/contracts';
import type { InternalRoute } from './shared/internal-route.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  /** The shared middleware, the route's label, then its handlers: everything the request runs, in order. */
  chain: RequestHandler[];
}

function compile(route: InternalRoute, first: readonly RequestHandler[]): CompiledRoute {
  const { method, path } = INTERNAL_ROUTES[route.operation];
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return `(${UUID})`;
    })
    .join('/');
  return {
    method,
    pattern: new RegExp(`^${MOUNT.replace(/\//g, '\\/')}${source}$`),
    names,
    chain: [...first, labelled(`${MOUNT}${path}`), ...route.handlers],
  };
}

/**
 * The gateway's hot calls (partner creates and lookups) on a route table of their own, matched before anything
 * else with only the middleware they need: request id, access log line, `Cache-Control: no-store`, metrics, then
 * the routes' own handlers (the internal token check first); errors go to the same error handler as every route.
 *
 * Only a path whose every parameter is a lower-case UUID matches, so the path checks the full chain applies
 * (hostile text, canonical UUID case) have nothing to do here; any other request, an upper-case id or a malformed
 * one included, goes on to the full chain, where the same routes answer it as before.
 */
export function internalRouteTable(routes: readonly InternalRoute[], deps: { logger: Logger; metrics: HttpMetrics }): RequestHandler {
  const onError = errorHandler(deps.logger);
  const first: RequestHandler[] = [
    requestId,
    // Every route here acts for the site in its path, a UUID by the match.
    accessLog(deps.logger, { siteOf: ({ req }) => (typeof req.params.siteId === 'string' ? req.params.siteId : undefined) }),
    noStore,
    deps.metrics.middleware,
  ];
  const table = routes.map((route) => compile(route, first));
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'POST') return next();
    const url = req.url;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!path.startsWith(MOUNT)) return next();
    for (const route of table) {
      if (route.method !== req.method) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => (params[name] = match[index + 1] as string));
      req.params = params;
      run(req, res, route.chain, (error) => onError(error, req, res, () => undefined));
      return;
    }
    next();
  };
}

/**
 * Names the route the request took as Express does when it reaches a route (the access log and the metrics read the
 * template from `req.route`: packages/http route-template.ts); the mount is part of the template, so no base URL.
 */
function labelled(template: string): RequestHandler {
  const route = { path: template };
  return (req, _res, next) => {
    req.baseUrl = '';
    (req as Request & { route: unknown }).route = route;
    next();
  };
}

/** Runs `handlers` in turn as Express would: a thrown error, a rejected promise or `next(error)` goes to `fail`. */
function run(req: Request, res: Response, handlers: RequestHandler[], fail: (error: unknown) => void): void {
  let index = 0;
  const next: NextFunction = (error?: unknown) => {
    if (error !== undefined && error !== null && error !== 'route') {
      fail(error);
      return;
    }
    const handler = handlers[index];
    index += 1;
    // A route's last handler answers; one that passes on instead meets Express's end of the line, a 404.
    if (!handler) {
      fail(new AppError('not_found', 'No such endpoint.'));
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.catch(fail);
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}
