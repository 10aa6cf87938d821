/** The closed set of error codes the API answers with, and the HTTP status of each. */
export const ERROR_STATUS = {
  validation_failed: 400,
  idempotency_key_missing: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  statement_rejected: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLE: Record<ErrorCode, string> = {
  validation_failed: 'The request is not valid',
  idempotency_key_missing: 'Idempotency-Key header is required',
  unauthorized: 'Missing or invalid credentials',
  forbidden: 'Not allowed',
  not_found: 'Not found',
  conflict: 'The record is not in a state that allows this',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still in progress',
  payload_too_large: 'Request body is too large',
  unsupported_media_type: 'Content-Type must be application/json',
  idempotency_key_reused: 'Idempotency-Key was used with a different request body',
  statement_rejected: 'The bank statement cannot be imported',
  rate_limited: 'Too many requests',
  internal_error: 'Internal error',
  service_unavailable: 'Service temporarily unavailable',
};

/**
 * Why a 409 `conflict` was answered, in the problem's `reason` member: the closed set a caller branches on (the
 * console picks its message by it, the CLI prints it), each with its meaning as docs/errors.md states it. A
 * problem's `detail` is prose for people and may change wording at any time.
 */
export const CONFLICT_REASONS = {
  invalid_transition:
    "The record's status does not allow this action: it was already decided, or is not ready for it yet (the detail names the status).",
  state_changed: 'The record changed while this action ran (another operator acted at the same moment); reload it and decide again.',
  amount_exceeds_received: 'The credit asked for is more than the money recorded as received for this deposit.',
  insufficient_balance: "The site's available balance does not cover the withdrawal (or the balance adjustment's debit).",
  intent_decided:
    'A bank transfer cannot be assigned to a deposit that was already approved or rejected: credit it to an approved one as a top-up, or return it to its sender (the detail says which applies).',
  transfer_settled:
    'The bank transfer already went somewhere (matched, assigned, set aside or being returned), so this action no longer applies.',
  transfer_not_returnable:
    'The transfer cannot go back to its sender: a deposit kept it, or it is already being returned. Only unmatched or set-aside money, or money paid for a rejected deposit, goes back.',
  bank_tx_id_reused: 'This bankTxId was already recorded with different details.',
  event_in_delivery: 'The event is still being delivered; replay it once it is DELIVERED or DEAD.',
  webhook_not_configured:
    'The site has no webhook URL or signing secret, so no test webhook can be sent: set them with PUT /site/webhook-config first.',
  operator_disabled: 'The operator is disabled, so no token can be issued for them.',
  self_disable: 'An operator cannot disable their own account.',
  bootstrap_token: 'The bootstrap token is configuration: it cannot be logged out and has no second factor.',
  otp_already_enrolled: 'The operator already has a second factor; disable it before enrolling a new one.',
  otp_not_pending: 'There is no enrollment to confirm: start one with POST /ops/v1/me/2fa/enroll.',
  otp_not_enrolled: 'The operator has no second factor, so there is no code to check.',
  second_approver_required:
    'Four-eyes: this payout is above its dual-approval threshold, or this is a balance adjustment (always), and two different people must approve it: you gave its standing first approval or proposed it, or you are tied to the operator who did (the admin who created or last changed the other account), or this is the bootstrap token, which is no person; another operator must approve it.',
  duplicate_adjustment:
    'An identical balance adjustment (same site, direction, amount and reason) is already waiting for its second admin: nothing was proposed. Decide that one (the detail names its reference), or give this one its own reason if both are meant.',
  not_exact_match:
    'A bulk approval takes only exact matches: the money received for the deposit is not exactly the amount requested; approve it on its own.',
  nothing_to_batch:
    'No approved payout is left to batch, or a withdrawal named is not APPROVED or is in a batch already: nothing was batched.',
  sandbox_payout:
    "The payout is a sandbox's simulated money (a test withdrawal, or a return of simulated money): it never leaves through the house's real account, so it cannot be batched, approved or sent by an operator. Nothing was changed.",
  compliance_hold:
    'The withdrawal (or deposit) is held by a sanctions screening hit that is undecided or was confirmed (docs/compliance.md): it cannot be approved, sent or batched until two admins clear the hit. Nothing was changed.',
  idempotency_record_lost:
    'This Idempotency-Key was answered before (the gateway remembers it, with this body) but the ledger no longer has the record it created: a database failover lost it. Nothing was created, so no second record exists for the key; look the record up by the id you were given (404 means lost) and create it again with a new Idempotency-Key if it is still wanted.',
  statement_not_final:
    'The day of the balance statement has not finished yet (today, a future day, or a day that ended less than five minutes ago, or a posting of it may still be committing): ask again later; a finished day always answers the same statement.',
} as const satisfies Record<string, string>;

export type ConflictReason = keyof typeof CONFLICT_REASONS;

/**
 * Why a 401 `unauthorized` or a 403 `forbidden` was answered, where the caller has something to do about it (the
 * operator's second factor, docs/operations.md): the console and the CLI ask for a code by it.
 */
export const AUTH_REASONS = {
  otp_required: 'The e-mail and password are right, but the account has a second factor: send the code too (401).',
  otp_invalid: 'The second-factor code (or recovery code) is wrong, expired or already used (401).',
  otp_enrollment_required:
    "The operator's role must use a second factor and this account has none yet: the token may only enroll one (403).",
  step_up_required: 'Approving this much money needs a second-factor code entered on this token in the last ten minutes (403).',
  site_scope: 'The operator is limited to some sites and this function is house-wide (every site at once) (403).',
} as const satisfies Record<string, string>;

export type AuthReason = keyof typeof AUTH_REASONS;

/** Every reason a problem may carry: `conflict` ({@link CONFLICT_REASONS}), `unauthorized` and `forbidden` ({@link AUTH_REASONS}). */
export type ErrorReason = ConflictReason | AuthReason;

/** Every reason of the closed set, for the Problem schema's enum. */
export const ERROR_REASONS = [...Object.keys(CONFLICT_REASONS), ...Object.keys(AUTH_REASONS)] as ErrorReason[];

export function isErrorReason(value: unknown): value is ErrorReason {
  return (
    typeof value === 'string' &&
    (Object.prototype.hasOwnProperty.call(CONFLICT_REASONS, value) || Object.prototype.hasOwnProperty.call(AUTH_REASONS, value))
  );
}

export interface FieldError {
  field: string;
  message: string;
}

/** RFC 9457 problem details with the partner-facing code in `error` (docs/api.md, Errors). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  error: ErrorCode;
  /** Which case of `error` this is, where callers must tell cases apart ({@link CONFLICT_REASONS}). */
  reason?: ErrorReason;
  errors?: FieldError[];
  requestId?: string;
}

/**
 * A problem's `type` is this followed by its code: the code's section of docs/errors.md, where the docs/ folder is
 * published at https://docs.kasa.example/ (README, Documentation). Callers branch on `error`, never on `type`.
 */
export const PROBLEM_TYPE_BASE = 'https://docs.kasa.example/errors.md#';

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}
