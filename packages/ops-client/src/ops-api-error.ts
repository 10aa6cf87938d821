import { isErrorReason, type ErrorReason, type FieldError } from '@kasa/contracts';

/** What an ops API error body may hold: RFC 9457 problem details with the ledger's code in `error`. */
export interface OpsProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  error?: string;
  reason?: string;
  errors?: FieldError[];
  requestId?: string;
}

export interface OpsApiErrorOptions {
  retryAfterSeconds?: number | null;
  answered?: boolean;
  message?: string;
}

/**
 * Every failed ops API call: a non-2xx answer with its problem details, or no answer at all (status 503,
 * `answered` false). The message reads like `409 conflict (invalid_transition): Cannot approve a deposit intent ...`.
 */
export class OpsApiError extends Error {
  /** The answer's Retry-After in seconds (429, 503), when it sent one. */
  readonly retryAfterSeconds: number | null;
  /** False when the ledger did not answer at all: refused, reset or timed out. */
  readonly answered: boolean;

  constructor(
    /** The HTTP status; 503 when the ledger did not answer. */
    readonly status: number,
    /** The problem details as sent; `{detail}` with the start of the body when it was not JSON. */
    readonly problem: OpsProblem,
    options: OpsApiErrorOptions = {},
  ) {
    super(options.message ?? describe(status, problem));
    this.name = 'OpsApiError';
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.answered = options.answered ?? true;
  }

  /** No answer from `baseUrl`; the message names the cause (`ECONNREFUSED`, a timeout). */
  static noAnswer(baseUrl: string, error: unknown): OpsApiError {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return new OpsApiError(
      503,
      { error: 'service_unavailable', detail: 'The ledger did not answer.' },
      { answered: false, message: `cannot reach the ledger at ${baseUrl}: ${reason}` },
    );
  }

  /** The ledger's error code (`conflict`, `forbidden`, ...); without one, `service_unavailable` for 5xx. */
  get code(): string {
    if (typeof this.problem.error === 'string') return this.problem.error;
    return this.status >= 500 ? 'service_unavailable' : 'unknown';
  }

  /** Which case of the code this is (`intent_decided`, ...), to branch on; null when the ledger named none we know. */
  get reason(): ErrorReason | null {
    return isErrorReason(this.problem.reason) ? this.problem.reason : null;
  }

  /** The ledger's explanation, for people; '' when it gave none. Branch on {@link reason}, never on this. */
  get detail(): string {
    return typeof this.problem.detail === 'string' ? this.problem.detail : '';
  }

  /** The fields the ledger refused; malformed entries are left out. */
  get fieldErrors(): FieldError[] {
    return fieldErrorsOf(this.problem);
  }
}

function fieldErrorsOf(problem: OpsProblem): FieldError[] {
  const errors: unknown = problem.errors;
  if (!Array.isArray(errors)) return [];
  return errors.filter(
    (e): e is FieldError => typeof (e as FieldError)?.field === 'string' && typeof (e as FieldError)?.message === 'string',
  );
}

function describe(status: number, problem: OpsProblem): string {
  const fields = fieldErrorsOf(problem)
    .map((e) => `${e.field} ${e.message}`)
    .join('; ');
  const reason = isErrorReason(problem.reason) ? ` (${problem.reason})` : '';
  return `${status} ${problem.error ?? 'error'}${reason}: ${problem.detail ?? problem.title ?? 'request failed'}${fields ? ` (${fields})` : ''}`;
}

/** Retry-After in seconds; the HTTP-date form is not used by the ledger and counts as absent. */
function retryAfterOf(header: string | null): number | null {
  return header !== null && /^\d+$/.test(header) ? Number(header) : null;
}

/** The error for a non-2xx answer: its body read as problem details when it is a JSON object. */
export function errorOfAnswer(status: number, text: string, retryAfter: string | null): OpsApiError {
  let problem: OpsProblem = {};
  if (text) {
    try {
      const parsed: unknown = JSON.parse(text);
      problem = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : { detail: text.slice(0, 200) };
    } catch {
      // Not problem details (a proxy's error page, say): its start is the best explanation there is.
      problem = { detail: text.slice(0, 200) };
    }
  }
  return new OpsApiError(status, problem, { retryAfterSeconds: retryAfterOf(retryAfter) });
}
