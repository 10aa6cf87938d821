import { Pool } from 'undici';
import {
  INTERNAL_ROUTES,
  internalPath,
  isErrorCode,
  isErrorReason,
  type FieldError,
  type InternalOperationId,
  type InternalParams,
} from '@kasa/contracts';
import { AppError } from '@kasa/http';

export interface LedgerResponse {
  status: number;
  /** The ledger's JSON body, untouched, so it is passed on without a parse and re-serialise. */
  body: string;
  replayed: boolean;
}

/**
 * The gateway's only way to the ledger: keep-alive HTTP with the internal token. Ledger errors come back
 * as AppErrors (the gateway answers them with its own request id); an unreachable or slow ledger is a 503.
 */
export class LedgerClient {
  private readonly pool: Pool;

  constructor(
    ledgerUrl: string,
    private readonly internalToken: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.pool = new Pool(ledgerUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  }

  /**
   * One operation of the internal API (@kasa/contracts' INTERNAL_ROUTES), by its id: the method and path come
   * from the table, `params` fill the path (URI-encoded there), `query` is an encoded query string.
   */
  call<Op extends InternalOperationId>(
    operation: Op,
    params: InternalParams<Op>,
    requestId: string,
    options: { body?: unknown; query?: string } = {},
  ): Promise<LedgerResponse> {
    return this.request(INTERNAL_ROUTES[operation].method, internalPath(operation, params, options.query), requestId, options.body);
  }

  /** A request by path; the gateway's routes use {@link call}. */
  async request(method: 'GET' | 'POST' | 'PUT', path: string, requestId: string, body?: unknown): Promise<LedgerResponse> {
    let response;
    try {
      response = await this.pool.request({
        method,
        path,
        headers: {
          'x-internal-token': this.internalToken,
          'x-request-id': requestId,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch {
      throw new AppError('service_unavailable', 'The service is temporarily unavailable; retry with the same Idempotency-Key.');
    }
    const text = await response.body.text();
    if (response.statusCode >= 400) throw toAppError(response.statusCode, text);
    return { status: response.statusCode, body: text, replayed: response.headers['idempotent-replayed'] === 'true' };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function toAppError(status: number, text: string): AppError {
  let problem: { error?: unknown; reason?: unknown; detail?: unknown; errors?: FieldError[] } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // Not a problem document: fall through to a generic error.
  }
  if (isErrorCode(problem.error) && problem.error !== 'internal_error' && status < 500) {
    const detail = typeof problem.detail === 'string' ? problem.detail : '';
    // The ledger's reason goes on to the partner, who branches on it as the ledger's callers do.
    return new AppError(problem.error, detail, problem.errors, undefined, isErrorReason(problem.reason) ? problem.reason : undefined);
  }
  if (status === 503)
    return new AppError('service_unavailable', 'The service is temporarily unavailable; retry with the same Idempotency-Key.');
  return new AppError('internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key.');
}
