import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@kasa/logger';
import { routeOf, templateParams, trackRoute } from './route-template.js';

/** What {@link AccessLogOptions.siteOf} is given to name the site a request acts for. */
export interface AccessLogRequest {
  req: Request;
  res: Response;
  /** The route template that served the request (`unmatched` when none did). */
  route: string;
  /** The template's path parameters, read from the request's path. */
  params: Record<string, string>;
}

export interface AccessLogOptions {
  /** The site the request is authenticated as, if any; logged as `siteId`. Called once the response is done. */
  siteOf?: (request: AccessLogRequest) => string | undefined;
  /** Routes logged at debug level only: probes that would otherwise drown the log. */
  quietRoutes?: readonly string[];
}

/**
 * What siteOf is given. A class, so its `params` getter is one on the prototype: an object literal with a getter of
 * its own per request gets a hidden class of its own, whose long-lived map then keeps the request (through the
 * getter's closure) alive through young-generation collections (docs/benchmarks.md).
 */
class LoggedRequest implements AccessLogRequest {
  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly route: string,
  ) {}

  get params(): Record<string, string> {
    return templateParams(this.route, this.req.originalUrl.split('?')[0] ?? '');
  }
}

/** The health, readiness and metrics routes of `operationalRoutes`: debug level only. */
export const PROBE_ROUTES: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/**
 * One JSON line per request once its answer is sent (or the client went away): `http request` with the
 * request id, method, route template (never the raw path: ids, tokens and queries stay out of the log),
 * status, duration in milliseconds, and the site when the request acts for one. Mount it right after
 * `requestId`, before anything that may answer.
 */
export function accessLog(logger: Logger, options: AccessLogOptions = {}): RequestHandler {
  const quiet = new Set(options.quietRoutes ?? PROBE_ROUTES);
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    trackRoute(req);
    let logged = false;
    const log = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const route = routeOf(req);
      const level = quiet.has(route) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100;
      const fields: Record<string, unknown> = { requestId: req.requestId, method: req.method, route, status: res.statusCode, durationMs };
      if (aborted) fields.aborted = true;
      // The path parameters are read only if siteOf asks for them (the gateway's never does).
      const siteId = options.siteOf?.(new LoggedRequest(req, res, route));
      if (siteId !== undefined) fields.siteId = siteId;
      logger.log(level, 'http request', fields);
    };
    res.once('finish', () => log(false));
    // The client closed the connection before the answer was complete: still one line, marked aborted.
    res.once('close', () => log(!res.writableFinished));
    next();
  };
}
