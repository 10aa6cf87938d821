import { Agent, fetch as undiciFetch } from 'undici';
import type { ListPage, LoginResult, OpsOperatorToken } from '@kasa/contracts';
import { errorOfAnswer, OpsApiError } from './ops-api-error.js';
import { withQuery, type Query } from './query.js';

/** The part of `fetch` the client uses; the global `fetch` fits, so a tool or test can pass its own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OpsClientOptions {
  /** The ledger's base URL (`http://ledger:8081`); the ops API is its `/ops/v1`. */
  baseUrl: string;
  /** The operator's bearer token. */
  token?: string;
  /** Sent as `x-request-id`, so one operator action can be followed through the caller's and the ledger's logs. */
  requestId?: string;
  /** Limit for one whole call (connecting, headers and body); 30 s unless given. */
  timeoutMs?: number;
  /**
   * Keep-alive connections of a pool the client owns, closed by {@link OpsClient.close}; a long-running
   * caller (the console) sets this. Without it the process-wide pool is used.
   */
  connections?: number;
  /** Another fetch to send with; `connections` is then ignored. */
  fetch?: FetchLike;
}

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The browser's address, vouched for with the internal token: the ledger counts login attempts per client
 * address, and without it every operator logging in through the console would share the console's.
 */
export interface ClientAddress {
  address: string;
  internalToken: string;
}

const OPS_PREFIX = '/ops/v1';
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A typed client of the ledger's ops API. Paths are relative to `/ops/v1`; every answer other than 2xx,
 * and no answer at all, is thrown as an {@link OpsApiError}.
 */
export class OpsClient {
  private readonly send: FetchLike;
  private readonly pool: Agent | null;

  constructor(private readonly options: OpsClientOptions) {
    const pool =
      !options.fetch && options.connections
        ? new Agent({ connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 })
        : null;
    this.pool = pool;
    this.send = options.fetch ?? ((url, init) => undiciFetch(url, pool ? { ...init, dispatcher: pool } : init));
  }

  /** The same client (and connections) as another operator or for another request; the console makes one per request. */
  with(scope: Pick<OpsClientOptions, 'token' | 'requestId'>): OpsClient {
    return new OpsClient({ ...this.options, ...scope, fetch: this.send });
  }

  /** Sends one call; resolves with the parsed JSON answer (null when empty). */
  request<T = unknown>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    return this.call<T>(method, `${OPS_PREFIX}${path}`, options);
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, query ? { query } : {});
  }

  post<T = unknown>(path: string, body: unknown = {}, options: Pick<RequestOptions, 'headers'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = unknown>(path: string, body: unknown = {}, options: Pick<RequestOptions, 'headers'> = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  patch<T = unknown>(path: string, body: unknown = {}, options: Pick<RequestOptions, 'headers'> = {}): Promise<T> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete<T = unknown>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /** Follows `nextCursor` (100 a page) until the list is exhausted or `max` items were read. */
  async *paginate<T>(path: string, query: Query = {}, max = Infinity): AsyncGenerator<T> {
    let cursor: string | null = null;
    let seen = 0;
    do {
      const page: ListPage<T> = await this.get<ListPage<T>>(path, { ...query, limit: '100', ...(cursor ? { cursor } : {}) });
      for (const item of page.data) {
        if (seen >= max) return;
        seen += 1;
        yield item;
      }
      cursor = page.nextCursor;
    } while (cursor && seen < max);
  }

  /** Trades e-mail and password for an operator token; `client` is the console's browser (see {@link ClientAddress}). */
  login(credentials: { email: string; password: string }, client?: ClientAddress): Promise<LoginResult> {
    const headers: Record<string, string> = client
      ? { 'x-internal-token': client.internalToken, 'x-kasa-client-address': client.address }
      : {};
    return this.post<LoginResult>('/login', credentials, { headers });
  }

  /** Revokes the client's own token. */
  logout(): Promise<OpsOperatorToken> {
    return this.post<OpsOperatorToken>('/logout');
  }

  /** Resolves when the ledger reports itself ready (`GET /readyz`, outside the ops API). */
  async ready(): Promise<void> {
    await this.call('GET', '/readyz', {});
  }

  /** Closes the connections of a pool the client owns ({@link OpsClientOptions.connections}); otherwise does nothing. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  private async call<T>(method: Method, path: string, { query, body, headers = {} }: RequestOptions): Promise<T> {
    const { baseUrl, token, requestId } = this.options;
    let answer: { status: number; text: string; retryAfter: string | null };
    try {
      const response = await this.send(`${baseUrl.replace(/\/+$/, '')}${withQuery(path, query)}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(requestId ? { 'x-request-id': requestId } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      answer = { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
    } catch (error) {
      throw OpsApiError.noAnswer(baseUrl, error);
    }
    if (answer.status < 200 || answer.status > 299) throw errorOfAnswer(answer.status, answer.text, answer.retryAfter);
    if (!answer.text) return null as T;
    try {
      return JSON.parse(answer.text) as T;
    } catch {
      throw new OpsApiError(502, { detail: `The ledger answered ${answer.status} with a body that is not JSON.` });
    }
  }
}
