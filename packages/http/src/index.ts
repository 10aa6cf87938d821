/** Shared HTTP plumbing: the error model, problem details, request ids, JSON bodies, health and metrics. */
export { AppError, problemOf } from './app-error.js';
export { requestId, errorHandler, notFound, sendProblem } from './middleware.js';
export { jsonBody, MAX_BODY_BYTES } from './json-body.js';
export { pathParam } from './path-param.js';
export { canonicalUuidPath } from './canonical-path.js';
export { jsonProblem, textProblem, rejectHostileUrl, noStore, verifyUtf8, MAX_JSON_DEPTH } from './hostile-input.js';
export { createHttpMetrics, operationalRoutes, type HttpMetrics, type ReadinessCheck } from './metrics.js';
export { listen, close, runProcess, settleWithin, type RunningProcess } from './server.js';
export { serveHttp, type HttpService } from './server.js';
