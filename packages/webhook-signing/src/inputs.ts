import { MAX_EVENT_ID_LENGTH, MAX_TIMESTAMP } from './constants.js';

/**
 * The exact bytes of the HTTP request body. A string is encoded as UTF-8;
 * a `Buffer` (or any `Uint8Array`) is used byte for byte.
 */
export type RawBody = string | Uint8Array;

/**
 * A header value as frameworks hand it over: Node's `req.headers[...]` may be
 * a string, an array (repeated header), or absent.
 */
export type HeaderValue = string | readonly string[] | null | undefined;

/**
 * Event ids: visible ASCII (they travel in an HTTP header), without `.`.
 *
 * Why no dot: the signed message is `eventId + "." + t + "." + body`. If ids
 * could contain `.`, an id ending in `.<digits>` could be re-split against a
 * different `t`, making two different (eventId, t) pairs sign the same bytes.
 * Forbidding `.` keeps the split unambiguous.
 */
const EVENT_ID_PATTERN = /^[\x21-\x2d\x2f-\x7e]+$/;

/** Returns a description of what is wrong with `eventId`, or `null` if valid. */
export function describeEventIdProblem(eventId: string): string | null {
  if (eventId.length === 0) return 'must not be empty';
  if (eventId.length > MAX_EVENT_ID_LENGTH) {
    return `must be at most ${MAX_EVENT_ID_LENGTH} characters`;
  }
  if (!EVENT_ID_PATTERN.test(eventId)) {
    return 'must contain only visible ASCII characters and no "."';
  }
  return null;
}

/** Throws a `TypeError` unless `eventId` is a valid event id (signer side). */
export function assertValidEventId(eventId: unknown): asserts eventId is string {
  if (typeof eventId !== 'string') {
    throw new TypeError(`eventId must be a string, got ${typeof eventId}`);
  }
  const problem = describeEventIdProblem(eventId);
  if (problem !== null) throw new TypeError(`eventId ${problem}`);
}

/** Throws unless `timestamp` is whole unix seconds within the accepted range. */
export function assertValidTimestamp(timestamp: unknown): asserts timestamp is number {
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('timestamp must be a non-negative integer number of unix seconds');
  }
  if (timestamp > MAX_TIMESTAMP) {
    throw new RangeError('timestamp is too large; it looks like milliseconds. Use Math.floor(Date.now() / 1000)');
  }
}

/**
 * Returns the body as bytes. Anything other than a string or byte array is a
 * wiring bug (typically `express.json()` ran first and replaced the raw body
 * with a parsed object, whose re-serialisation would not match byte for byte).
 */
export function toBodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return rawBody;
  throw new TypeError(
    'rawBody must be the raw request body as a string or Buffer/Uint8Array ' +
      '(for Express, use express.raw({ type: "application/json" }), not express.json())',
  );
}
