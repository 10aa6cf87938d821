import type { components } from './generated/kasa-api.js';

/** A problem document as the API answers errors (RFC 9457 with Kasa's `error` code). */
export type Problem = components['schemas']['Problem'];

/** Every error code the API can answer with. */
export type KasaErrorCode = Problem['error'];

/**
 * An API answer that is not a success, after any retries: its code, HTTP status, the request id to quote to
 * Kasa support, and the per-field reasons of a `validation_failed`.
 */
export class KasaApiError extends Error {
  readonly code: KasaErrorCode;
  readonly status: number;
  readonly requestId: string | undefined;
  /** The case of `code` to branch on where one code has several (a `conflict`'s, e.g. `statement_not_final`); else undefined. */
  readonly reason: Problem['reason'];
  readonly fieldErrors: { field: string; message: string }[];

  constructor(problem: Problem, status: number, requestId: string | undefined) {
    super(`${problem.error}: ${problem.detail}`);
    this.name = 'KasaApiError';
    this.code = problem.error;
    this.status = status;
    this.requestId = problem.requestId ?? requestId;
    this.reason = problem.reason;
    this.fieldErrors = problem.errors ?? [];
  }
}

/** No answer at all (timeouts, refused connections) after every retry. */
export class KasaNetworkError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
    this.name = 'KasaNetworkError';
  }
}
