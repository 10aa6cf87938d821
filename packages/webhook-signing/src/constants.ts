/** HTTP header carrying `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. */
export const SIGNATURE_HEADER = 'Service-Signature';

/** HTTP header carrying the event id that is bound into the signature. */
export const EVENT_ID_HEADER = 'Service-Event-Id';

/**
 * Default allowed clock skew, in seconds, applied in BOTH directions.
 * Five minutes absorbs ordinary clock drift and queueing delay while keeping
 * the replay window for a captured request short.
 */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Every webhook secret starts with this prefix. */
export const SECRET_PREFIX = 'whsec_';

/** The only signature scheme this package produces and checks. */
export const SIGNATURE_SCHEME = 'v1';

/**
 * Upper bound on the signature header length. A legitimate header is well
 * under 1 KiB; the cap stops a hostile sender from making us split and scan
 * megabytes of header text.
 */
export const MAX_HEADER_LENGTH = 4096;

/**
 * Upper bound on `v1=` entries in one header. Rotation needs two; the cap
 * bounds the comparison work per request.
 */
export const MAX_SIGNATURES = 8;

/** Upper bound on event id length (it travels in an HTTP header). */
export const MAX_EVENT_ID_LENGTH = 255;

/**
 * Largest accepted timestamp: 11 decimal digits (~ year 5138). Unix
 * milliseconds are 13 digits today, so a sender that mistakenly passes
 * `Date.now()` is rejected loudly instead of producing headers that can
 * never verify.
 */
export const MAX_TIMESTAMP = 99_999_999_999;
