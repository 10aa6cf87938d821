import {
  ERROR_STATUS,
  ERROR_TITLE,
  PROBLEM_TYPE_BASE,
  type ConflictReason,
  type ErrorCode,
  type ErrorReason,
  type FieldError,
  type ProblemDetails,
} from '@kasa/contracts';

/** The one error type the services throw on purpose; the error middleware turns it into problem details. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
    /** The machine-readable case of `code` that callers branch on; answered as the problem's `reason`. */
    readonly reason?: ErrorReason,
  ) {
    super(detail);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  static validation(errors: FieldError[], detail = 'One or more fields are not valid.'): AppError {
    return new AppError('validation_failed', detail, errors);
  }

  /** A 409 `conflict` with the reason a caller tells it apart by; `detail` is the prose for people. */
  static conflict(reason: ConflictReason, detail: string, errors?: FieldError[]): AppError {
    return new AppError('conflict', detail, errors, undefined, reason);
  }
}

export function problemOf(
  code: ErrorCode,
  detail: string,
  requestId?: string,
  errors?: FieldError[],
  reason?: ErrorReason,
): ProblemDetails {
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: ERROR_TITLE[code],
    status: ERROR_STATUS[code],
    detail,
    error: code,
    ...(reason ? { reason } : {}),
    ...(errors && errors.length > 0 ? { errors } : {}),
    ...(requestId ? { requestId } : {}),
  };
}
