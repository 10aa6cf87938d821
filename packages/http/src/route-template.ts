import type { Request } from 'express';

/** The label of a request that matched no route (404s, and requests refused before their route was reached). */
export const UNMATCHED_ROUTE = 'unmatched';

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRACKED = Symbol('kasa.routeTemplate');
/** Where a tracked request keeps the `req.route` Express gave it. */
const ROUTE = Symbol('kasa.route');

interface Tracked {
  template: string | undefined;
}

type TrackedRequest = Request & { [TRACKED]?: Tracked; [ROUTE]?: unknown };

/** Request prototypes (one per Express app) whose `route` is already followed. */
const following = new WeakSet<object>();

/**
 * Starts following which route serves `req`, once per request however many middlewares ask. Express sets
 * `req.route` just before a route's handlers run, while `req.baseUrl` still holds the mount path; by the
 * time the response finishes the mount is unwound. The template is captured at that moment.
 *
 * The `route` accessor is defined once on the app's request prototype, not on each request: an accessor
 * defined per object with closures of its own gives every request a hidden class of its own, whose
 * (long-lived) map then holds the closures and, through them, the whole request, so every request survived
 * young-generation collections and had to be copied and promoted (about 6 MB per scavenge in the ledger at
 * 700 requests/s, 10 MB in the gateway: docs/benchmarks.md).
 */
export function trackRoute(req: Request): void {
  const tracked = req as TrackedRequest;
  if (tracked[TRACKED]) return;
  tracked[TRACKED] = { template: undefined };
  const prototype = Object.getPrototypeOf(req) as object | null;
  if (prototype === null || following.has(prototype)) return;
  following.add(prototype);
  Object.defineProperty(prototype, 'route', {
    configurable: true,
    enumerable: true,
    get(this: TrackedRequest) {
      return this[ROUTE];
    },
    set(this: TrackedRequest, value: { path?: unknown } | undefined) {
      this[ROUTE] = value;
      const state = this[TRACKED];
      if (state && value && typeof value.path === 'string') state.template = routeTemplate(this.baseUrl, value.path, this.params);
    },
  });
}

/**
 * The route template that served `req` (`/api/v1/external/intents/:intentId`), never a raw path; every
 * request that reached no route is {@link UNMATCHED_ROUTE}, so no request can add a value of its own.
 * Needs {@link trackRoute} to have run first (the access log and the metrics middleware do).
 */
export function routeOf(req: Request): string {
  return (req as TrackedRequest)[TRACKED]?.template ?? UNMATCHED_ROUTE;
}

/**
 * A route's label, never a raw path: the mount path with its parameter values put back as `:name` (and any
 * UUID as `:id`), then the route's own template.
 */
export function routeTemplate(baseUrl: string, routePath: string, params: Record<string, string | string[] | undefined>): string {
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) if (typeof value === 'string') names.set(value, name);
  const mount = baseUrl
    .split('/')
    .map((segment) => {
      const name = names.get(segment) ?? names.get(safeDecode(segment));
      if (name !== undefined && segment !== '') return `:${name}`;
      return UUID_SEGMENT.test(segment) ? ':id' : segment;
    })
    .join('/');
  return `${mount}${routePath === '/' && mount !== '' ? '' : routePath}`;
}

/**
 * The values of a template's `:name` segments in `path` (`/sites/:siteId` and `/sites/abc` give
 * `{siteId: 'abc'}`); empty when the two do not line up segment for segment.
 */
export function templateParams(template: string, path: string): Record<string, string> {
  const names = template.split('/');
  const values = path.split('/');
  if (names.length !== values.length) return {};
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    if (name.startsWith(':')) params[name.slice(1)] = safeDecode(values[index] ?? '');
  });
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
