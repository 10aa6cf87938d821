import express, { type RequestHandler, type Router } from 'express';

/** One route of the gateway's hot calls: its method, its path under `/internal/v1`, and its handlers in order. */
export interface InternalRoute {
  method: 'GET' | 'POST';
  /** Under `/internal/v1`, Express style: `/sites/:siteId/intents/:intentId`. */
  path: string;
  handlers: RequestHandler[];
}

/** The routes as an Express router, for the path the fast table does not take (see {@link internalRouteTable}). */
export function routerOf(routes: readonly InternalRoute[]): Router {
  const router = express.Router();
  for (const route of routes) {
    if (route.method === 'GET') router.get(route.path, ...route.handlers);
    else router.post(route.path, ...route.handlers);
  }
  return router;
}
