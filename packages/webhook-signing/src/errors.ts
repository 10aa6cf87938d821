/**
 * The closed set of reasons a webhook can fail verification.
 *
 * - `missing_header`: no `Service-Signature` header (or it is empty); for the Standard Webhooks headers, no
 *   `webhook-timestamp` or `webhook-signature`.
 * - `malformed_header`: the signature header (or the event id header) cannot
 *   be parsed: garbage, missing/duplicate/non-numeric `t`, no `v1`, non-hex
 *   `v1`, oversized input.
 * - `timestamp_out_of_tolerance`: `t` is too old or too far in the future.
 * - `no_matching_signature`: no `v1` matches any of the receiver's secrets.
 * - `missing_event_id`: no `Service-Event-Id` header (or it is empty); for the Standard Webhooks headers, no
 *   `webhook-id`.
 */
export const WEBHOOK_VERIFICATION_FAILURE_REASONS = [
  'missing_header',
  'malformed_header',
  'timestamp_out_of_tolerance',
  'no_matching_signature',
  'missing_event_id',
] as const;

/** One of {@link WEBHOOK_VERIFICATION_FAILURE_REASONS}. */
export type WebhookVerificationFailureReason = (typeof WEBHOOK_VERIFICATION_FAILURE_REASONS)[number];

/**
 * Thrown when an incoming webhook must be rejected. Receivers should answer
 * with a 4xx and may log {@link WebhookVerificationError.reason}; the message
 * never contains secrets or expected signatures.
 *
 * Programming/configuration mistakes (no secrets configured, a parsed JSON
 * object passed as the body, a negative tolerance) are NOT reported with this
 * class: they throw `TypeError`/`RangeError` so they surface as bugs instead
 * of being silently answered with "400 invalid signature".
 */
export class WebhookVerificationError extends Error {
  /** Machine-readable failure reason, safe to log and to return to callers. */
  readonly reason: WebhookVerificationFailureReason;

  constructor(reason: WebhookVerificationFailureReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}
