import { Pool } from 'undici';

/** One field the ledger refused, as its problem details list it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A non-2xx answer of the ledger (its problem details), or no answer at all (status 503). */
export class OpsApiError extends Error {
  constructor(
    readonly status: number,
    /** The ledger's error code (`conflict`, `forbidden`, ...); `service_unavailable` when it did not answer. */
    readonly code: string,
    readonly detail: string,
    readonly fieldErrors: FieldProblem[] = [],
    /** The ledger's Retry-After in seconds (429, 503), when it sent one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`ledger answered ${status} ${code}: ${detail}`);
    this.name = 'OpsApiError';
  }
}

/** Query parameters; empty and undefined values are left out, since the ledger refuses empty filters. */
export type Query = Record<string, string | undefined>;

type Method = 'GET' | 'POST' | 'DELETE';

export interface CallOptions {
  requestId: string;
  token?: string;
  query?: Query;
  body?: unknown;
  /**
   * The browser's address, vouched for with the internal token: the ledger counts login attempts per client
   * address, and without this every operator would share the console's.
   */
  client?: { address: string; internalToken: string };
}

/** `/intents` + `{status: 'A'}` -> `/intents?status=A` (empty values dropped). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The console's only way to the ledger: keep-alive HTTP to LEDGER_URL with the operator's bearer token.
 * The console's request id is passed on, so one operator action can be followed through both logs.
 */
export class LedgerOpsClient {
  private readonly pool: Pool;

  constructor(
    readonly ledgerUrl: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.pool = new Pool(ledgerUrl, { connections: 16, pipelining: 1, keepAliveTimeout: 30_000 });
  }

  async call<T>(method: Method, path: string, options: CallOptions): Promise<T> {
    const hasBody = method === 'POST';
    let response;
    try {
      response = await this.pool.request({
        method,
        path: withQuery(path, options.query),
        headers: {
          'x-request-id': options.requestId,
          accept: 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
          ...(options.client ? { 'x-internal-token': options.client.internalToken, 'x-kasa-client-address': options.client.address } : {}),
        },
        ...(hasBody ? { body: JSON.stringify(options.body ?? {}) } : {}),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch {
      throw new OpsApiError(503, 'service_unavailable', 'The ledger did not answer.');
    }
    const text = await response.body.text();
    if (response.statusCode >= 400) throw toOpsApiError(response.statusCode, text, response.headers['retry-after']);
    return (text ? JSON.parse(text) : null) as T;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Retry-After in seconds; the HTTP-date form is not used by the ledger and counts as absent. */
function retryAfterOf(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

function toOpsApiError(status: number, text: string, retryAfter: string | string[] | undefined): OpsApiError {
  let problem: { error?: unknown; detail?: unknown; errors?: unknown } = {};
  try {
    problem = JSON.parse(text) as typeof problem;
  } catch {
    // Not problem details (a proxy's error page, say): the status alone has to do.
  }
  const fields = Array.isArray(problem.errors)
    ? (problem.errors as unknown[]).filter(
        (e): e is FieldProblem => typeof (e as FieldProblem)?.field === 'string' && typeof (e as FieldProblem)?.message === 'string',
      )
    : [];
  return new OpsApiError(
    status,
    typeof problem.error === 'string' ? problem.error : status >= 500 ? 'service_unavailable' : 'unknown',
    typeof problem.detail === 'string' ? problem.detail : '',
    fields,
    retryAfterOf(retryAfter),
  );
}

/** The ops API bound to one operator's token and one console request. */
export interface OpsApi {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

export function opsApiFor(client: LedgerOpsClient, token: string, requestId: string): OpsApi {
  const prefix = '/ops/v1';
  return {
    get: (path, query) => client.call('GET', `${prefix}${path}`, { token, requestId, ...(query ? { query } : {}) }),
    post: (path, body) => client.call('POST', `${prefix}${path}`, { token, requestId, body: body ?? {} }),
    delete: (path) => client.call('DELETE', `${prefix}${path}`, { token, requestId }),
  };
}

/** A path segment from an id typed or clicked by an operator; never lets it change the path. */
export const seg = (id: string): string => encodeURIComponent(id);
