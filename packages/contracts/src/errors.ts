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
  rate_limited: 'Too many requests',
  internal_error: 'Internal error',
  service_unavailable: 'Service temporarily unavailable',
};

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
