import { timingSafeEqual } from 'node:crypto';

import { DEFAULT_TOLERANCE_SECONDS, EVENT_ID_HEADER, MAX_TIMESTAMP } from './constants.js';
import { WebhookVerificationError } from './errors.js';
import { describeEventIdProblem, toBodyBytes, type HeaderValue, type RawBody } from './inputs.js';
import { parseSignatureHeader } from './parse.js';
import { assertUsableSecret } from './secret.js';
import { computeSignature } from './hmac.js';

/**
 * The current time for the tolerance check: unix seconds, a `Date`, or a
 * clock function returning either. Lets tests and replays control time
 * without sleeping.
 */
export type NowInput = number | Date | (() => number | Date);

/** Input to {@link verifyWebhook} and {@link isValidWebhook}. */
export interface VerifyWebhookInput {
  /** Value of the `Service-Signature` header, as received. */
  header: HeaderValue;
  /** Value of the `Service-Event-Id` header, as received. */
  eventId: HeaderValue;
  /** Exact body bytes as received, before any JSON parsing. */
  rawBody: RawBody;
  /**
   * The receiver's secret, or several during rotation (new first, then old).
   * Verification passes if any `v1` in the header matches any of them.
   */
  secrets: string | readonly string[];
  /** Allowed skew in seconds, both directions. Default {@link DEFAULT_TOLERANCE_SECONDS}. */
  toleranceSeconds?: number | undefined;
  /** Current time; defaults to the system clock. */
  now?: NowInput | undefined;
}

/**
 * Verifies an incoming webhook. Returns normally when the webhook is
 * authentic and fresh; throws otherwise.
 *
 * Checks, in order: the signature header is present and parses; the event id
 * header is present and well-formed; `t` is within
 * `toleranceSeconds` of `now` (too old AND too far in the future both fail);
 * at least one `v1` equals the HMAC under at least one of `secrets`
 * (constant-time comparison).
 *
 * Passing the freshness check does not make a delivery unique: the sender
 * retries with the same event id, so receivers should still deduplicate on it.
 *
 * @throws WebhookVerificationError when the webhook must be rejected; see
 *   its `reason`.
 * @throws TypeError/RangeError on receiver misconfiguration (no/unusable
 *   secrets, bad tolerance or clock, body that is not raw bytes).
 */
export function verifyWebhook(input: VerifyWebhookInput): void {
  // Configuration is validated before looking at the request, so a
  // misconfigured receiver fails loudly on every request instead of looking
  // like a stream of bad signatures.
  const secrets = normaliseSecrets(input.secrets);
  const tolerance = normaliseTolerance(input.toleranceSeconds);
  const nowSeconds = resolveNow(input.now);
  const body = toBodyBytes(input.rawBody);

  const { timestamp, signatures } = parseSignatureHeader(input.header);
  const eventId = readEventId(input.eventId);

  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `signature timestamp is more than ${tolerance}s away from the current time`,
    );
  }

  const expected = secrets.map((secret) => computeSignature(secret, eventId, timestamp, body));
  let matched = false;
  // No early exit: every (received, expected) pair is compared so timing does
  // not reveal which entry or secret matched.
  for (const signature of signatures) {
    const received = Buffer.from(signature, 'hex');
    for (const candidate of expected) {
      // timingSafeEqual throws on unequal lengths; the parser already
      // guarantees 32 bytes, this keeps it safe if that ever changes.
      if (received.length === candidate.length && timingSafeEqual(received, candidate)) {
        matched = true;
      }
    }
  }
  if (!matched) {
    throw new WebhookVerificationError('no_matching_signature', 'no v1 signature matches the configured secret(s)');
  }
}

/**
 * Boolean form of {@link verifyWebhook}: `true` if the webhook verifies,
 * `false` if it is rejected for any {@link WebhookVerificationError} reason.
 *
 * @throws TypeError/RangeError on receiver misconfiguration, exactly like
 *   {@link verifyWebhook}; a wiring bug should not masquerade as `false`.
 */
export function isValidWebhook(input: VerifyWebhookInput): boolean {
  try {
    verifyWebhook(input);
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

/** The receiver's secret(s) as a non-empty list of usable secrets; a TypeError otherwise. */
export function normaliseSecrets(secrets: unknown): string[] {
  let list: unknown[] = [];
  if (typeof secrets === 'string') list = [secrets];
  else if (Array.isArray(secrets)) list = secrets;
  if (list.length === 0) {
    throw new TypeError('secrets must be a secret string or a non-empty array of secrets');
  }
  const result: string[] = [];
  list.forEach((secret, i) => {
    assertUsableSecret(secret, `secrets[${i}]`);
    result.push(secret);
  });
  return result;
}

/** The tolerance in seconds (default 300); a RangeError for a negative or non-finite one. */
export function normaliseTolerance(toleranceSeconds: unknown): number {
  if (toleranceSeconds === undefined) return DEFAULT_TOLERANCE_SECONDS;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError('toleranceSeconds must be a finite number >= 0');
  }
  return toleranceSeconds;
}

/** The current time in unix seconds from a {@link NowInput}; the system clock by default. */
export function resolveNow(now: NowInput | undefined): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  const value: unknown = typeof now === 'function' ? now() : now;
  const seconds = value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) {
    throw new TypeError('now must be unix seconds, a valid Date, or a function returning either');
  }
  if (seconds > MAX_TIMESTAMP) {
    // Otherwise Date.now() passed by mistake would reject every webhook as
    // "timestamp out of tolerance", which is hard to diagnose.
    throw new RangeError('now is too large; it looks like milliseconds, pass unix seconds');
  }
  return seconds;
}

function readEventId(eventIdHeader: HeaderValue): string {
  let single: unknown = eventIdHeader;
  if (Array.isArray(single)) {
    // A repeated header can arrive as an array; exactly one value is meaningful.
    single = single.length === 0 ? undefined : single.length === 1 ? single[0] : single;
  }
  if (single === undefined || single === null || single === '') {
    throw new WebhookVerificationError('missing_event_id', `${EVENT_ID_HEADER} header is missing`);
  }
  if (typeof single !== 'string') {
    throw new WebhookVerificationError('malformed_header', `${EVENT_ID_HEADER} header is malformed: expected exactly one value`);
  }
  const problem = describeEventIdProblem(single);
  if (problem !== null) {
    throw new WebhookVerificationError('malformed_header', `${EVENT_ID_HEADER} header ${problem}`);
  }
  return single;
}
