/** Shared HTTP plumbing: the error model, problem details, request ids, JSON bodies, health and metrics. */
export { AppError, problemOf } from './app-error.js';
export { requestId, errorHandler, notFound, sendProblem } from './middleware.js';
export { currentRequestId, requestScope } from './request-scope.js';
export { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from './dependency-errors.js';
export { jsonBody, jsonBodyOf, MAX_BODY_BYTES } from './json-body.js';
export { pathParam } from './path-param.js';
export { canonicalUuidPath } from './canonical-path.js';
export { jsonProblem, textProblem, rejectHostileUrl, noStore, verifyUtf8, MAX_JSON_DEPTH } from './hostile-input.js';
export {
  createHttpMetrics,
  operationalRoutes,
  scrapeSample,
  type CheckState,
  type DependencyCheck,
  type HttpMetrics,
  type ReadinessCheck,
} from './metrics.js';
export { accessLog, PROBE_ROUTES, type AccessLogOptions, type AccessLogRequest } from './access-log.js';
export { routeOf, routeTemplate, templateParams, trackRoute, UNMATCHED_ROUTE } from './route-template.js';
export {
  listen,
  close,
  forceClose,
  runProcess,
  settleWithin,
  DEFAULT_SHUTDOWN_GRACE_MS,
  IDLE_LINGER_MS,
  type RunningProcess,
} from './server.js';
export { serveHttp, type HttpService } from './server.js';
