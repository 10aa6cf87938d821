import express, { type RequestHandler, type Router } from 'express';
import { INTERNAL_ROUTES, type InternalOperationId } from '@kasa/contracts';
import { internalAuth } from './http-guards.js';

/** One operation of the gateway's hot calls (its method and path are INTERNAL_ROUTES' in @kasa/contracts) and its handlers in order. */
export interface InternalRoute {
  operation: InternalOperationId;
  handlers: RequestHandler[];
}

/** The routes as an Express router mounted at `/internal/v1`, for the path the fast table does not take (internal-routes.ts). */
export function routerOf(routes: readonly InternalRoute[]): Router {
  const router = express.Router();
  for (const route of routes) {
    const { method, path } = INTERNAL_ROUTES[route.operation];
    if (method === 'GET') router.get(path, ...route.handlers);
    else if (method === 'PUT') router.put(path, ...route.handlers);
    else router.post(path, ...route.handlers);
  }
  return router;
}

/** {@link routerOf} behind the internal token: every internal route's router (a request without the token is 401). */
export function internalRouter(token: string, routes: readonly InternalRoute[]): Router {
  const router = express.Router();
  router.use(internalAuth(token));
  router.use(routerOf(routes));
  return router;
}
