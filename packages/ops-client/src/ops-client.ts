import { Agent, fetch as undiciFetch } from 'undici';
import {
  OPS_ROUTES,
  type LoginResult,
  type OpsCall,
  type OpsListOperationId,
  type OpsOperationId,
  type OpsOperatorToken,
  type OpsPaginate,
  type OpsResponse,
} from '@kasa/contracts';
import { errorOfAnswer, OpsApiError } from './ops-api-error.js';
import { seg, withQuery, type Query } from './query.js';

/** The part of `fetch` the client uses; the global `fetch` fits, so a tool or test can pass its own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array; signal: AbortSignal },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body unread, for an answer streamed on ({@link OpsClient.exportCsv}); the global `fetch` has it. */
  body?: ReadableStream<Uint8Array> | null;
}>;

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

/** The operations whose body is a file sent as it is (`rawBody` in the route table), such as a bank statement. */
export type OpsFileOperationId = {
  [Op in OpsOperationId]: (typeof OPS_ROUTES)[Op] extends { rawBody: unknown } ? Op : never;
}[OpsOperationId];

/** A file for an {@link OpsFileOperationId}: its bytes as they are, and the media type the route takes. */
export interface OpsFile {
  bytes: Uint8Array;
  contentType: string;
}

/** The list operations that also answer `Accept: text/csv` with every matching row (`csvExport` in the route table). */
export type OpsCsvOperationId = {
  [Op in OpsOperationId]: (typeof OPS_ROUTES)[Op] extends { csvExport: true } ? Op : never;
}[OpsOperationId];

/** The GET operations that answer a CSV file of their own, not a list's rows (`csvFile` streams them). */
export type OpsCsvFileOperationId = Extract<OpsOperationId, 'riskReport'>;

/** A CSV file as the ledger streams it: its body unread, and the name it offers to save it under. */
export interface OpsCsvFile {
  body: ReadableStream<Uint8Array>;
  /** `kasa-intents-20261126T101500Z.csv`, from the ledger's Content-Disposition. */
  filename: string;
}

/** What {@link OpsClient.call} reads of any operation's input. */
interface CallInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A typed client of the ledger's ops API: each operation of the route table by name ({@link OpsClient.call}).
 * Every answer other than 2xx, and no answer at all, is thrown as an {@link OpsApiError}.
 */
export class OpsClient {
  private readonly fetch: FetchLike;
  private readonly pool: Agent | null;

  constructor(private readonly options: OpsClientOptions) {
    const pool =
      !options.fetch && options.connections
        ? new Agent({ connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 })
        : null;
    this.pool = pool;
    this.fetch = options.fetch ?? ((url, init) => undiciFetch(url, pool ? { ...init, dispatcher: pool } : init));
  }

  /** The same client (and connections) as another operator or for another request; the console makes one per request. */
  with(scope: Pick<OpsClientOptions, 'token' | 'requestId'>): OpsClient {
    return new OpsClient({ ...this.options, ...scope, fetch: this.fetch });
  }

  /**
   * Calls one ops operation by name (`ops.call('approveIntent', { params: { intentId }, body })`): method and path
   * come from the route table, the input and the answer are typed from the operation's schemas.
   */
  readonly call: OpsCall = (operationId: OpsOperationId, input: CallInput = {}) =>
    // The cast (`never` fits every signature of OpsCall): the ledger answers each operation with its response
    // schema, which test/contract checks on real answers, and OpsCall types each operation's answer from it.
    this.callOperation(operationId, input) as never;

  /**
   * Calls an operation whose body is a file (`ops.upload('importStatement', { params: { accountId } }, { bytes, contentType })`):
   * the bytes are sent unchanged with their media type (and `query`, where the route reads one: a list's source); the
   * answer is typed as for {@link call}.
   */
  upload<Op extends OpsFileOperationId>(
    operationId: Op,
    input: { params?: Record<string, string>; query?: Query },
    file: OpsFile,
  ): Promise<OpsResponse<Op>> {
    return this.send(OPS_ROUTES[operationId].method, `${OPS_PREFIX}${this.fill(operationId, input.params)}`, {
      file,
      query: input.query,
    }) as Promise<OpsResponse<Op>>;
  }

  /**
   * Calls an operation whose answer is a file (`ops.download('getPayoutBatchFile', { params: { batchId } })`): the
   * answer's text as the ledger sent it (a pain.001 XML or a CSV), not parsed.
   */
  download(operationId: 'getPayoutBatchFile', input: { params?: Record<string, string>; query?: Query } = {}): Promise<string> {
    return this.send('GET', `${OPS_PREFIX}${this.fill(operationId, input.params)}`, { query: input.query, raw: true }) as Promise<string>;
  }

  /**
   * Every item a list operation's filters select, as the ledger's CSV file (`Accept: text/csv`; docs/operations.md,
   * CSV export). The body comes back unread, for the caller to stream on (to stdout, to a browser): a 100,000-row
   * file is never held whole. A refused query (a bad filter: 400) throws {@link OpsApiError} before any row. The
   * client's timeout covers the answer's headers only; the body takes as long as it takes.
   */
  exportCsv(operationId: OpsCsvOperationId, query: Query = {}): Promise<OpsCsvFile> {
    return this.streamCsv(OPS_ROUTES[operationId].path, query);
  }

  /**
   * An operation whose answer is a CSV file of its own rather than a list's rows (the risk report for the authority):
   * streamed as {@link exportCsv} streams a list's, and refused (a bad query: 400) the same way before any row.
   */
  csvFile(operationId: OpsCsvFileOperationId, query: Query = {}): Promise<OpsCsvFile> {
    return this.streamCsv(OPS_ROUTES[operationId].path, query);
  }

  private async streamCsv(path: string, query: Query): Promise<OpsCsvFile> {
    const { baseUrl, token, requestId } = this.options;
    const headersDue = new AbortController();
    const timer = setTimeout(() => headersDue.abort(new Error('no answer in time')), this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    let response: Awaited<ReturnType<FetchLike>>;
    try {
      response = await this.fetch(`${baseUrl.replace(/\/+$/, '')}${withQuery(`${OPS_PREFIX}${path}`, query)}`, {
        method: 'GET',
        headers: {
          accept: 'text/csv',
          ...(requestId ? { 'x-request-id': requestId } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        signal: headersDue.signal,
      });
    } catch (error) {
      throw OpsApiError.noAnswer(baseUrl, error);
    } finally {
      clearTimeout(timer);
    }
    if (response.status < 200 || response.status > 299) {
      throw errorOfAnswer(response.status, await response.text(), response.headers.get('retry-after'));
    }
    const disposition = /filename="([\w.-]+)"/.exec(response.headers.get('content-disposition') ?? '');
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/csv')) {
      throw new OpsApiError(502, { detail: `The ledger answered ${response.status} without a CSV body.` });
    }
    return { body: response.body, filename: disposition?.[1] ?? 'kasa-export.csv' };
  }

  /** Follows `nextCursor` (100 a page) of a list operation until it is exhausted or `max` items were read. */
  readonly paginate: OpsPaginate = (operationId: OpsListOperationId, query: Query = {}, max = Infinity) =>
    // As for `call`: the items are the list operation's items, by its response schema.
    this.pages(operationId, query, max) as never;

  /** Sends any request under `/ops/v1`, untyped: for a path outside the route table. Prefer {@link call}. */
  request(method: Method, path: string, options: RequestOptions = {}): Promise<unknown> {
    return this.send(method, `${OPS_PREFIX}${path}`, options);
  }

  /** Trades e-mail and password for an operator token; `client` is the console's browser (see {@link ClientAddress}). */
  /** `code`: the second-factor code, once the ledger answered 401 `otp_required` (docs/operations.md). */
  login(credentials: { email: string; password: string; code?: string }, client?: ClientAddress): Promise<LoginResult> {
    const headers: Record<string, string> = client
      ? { 'x-internal-token': client.internalToken, 'x-kasa-client-address': client.address }
      : {};
    return this.call('login', { body: credentials, headers });
  }

  /** Revokes the client's own token. */
  logout(): Promise<OpsOperatorToken> {
    return this.call('logout');
  }

  /** Resolves when the ledger reports itself ready (`GET /readyz`, outside the ops API). */
  async ready(): Promise<void> {
    await this.send('GET', '/readyz', {});
  }

  /** Closes the connections of a pool the client owns ({@link OpsClientOptions.connections}); otherwise does nothing. */
  async close(): Promise<void> {
    await this.pool?.close();
  }

  private async callOperation(operationId: OpsOperationId, { params, body, query, headers }: CallInput): Promise<unknown> {
    const { method } = OPS_ROUTES[operationId];
    const filled = this.fill(operationId, params);
    // A write without a body still sends `{}`: the ledger checks every write's content type.
    const sent = method === 'GET' || method === 'DELETE' ? undefined : (body ?? {});
    return this.send(method, `${OPS_PREFIX}${filled}`, { query, body: sent, headers });
  }

  /** The operation's path with its parameters filled in. */
  private fill(operationId: OpsOperationId, params: Record<string, string> | undefined): string {
    return OPS_ROUTES[operationId].path.replace(/:(\w+)/g, (_match, name: string) => {
      const value = params?.[name];
      if (value === undefined) throw new TypeError(`${operationId} needs the path parameter ${name}`);
      return seg(value);
    });
  }

  private async *pages(operationId: OpsListOperationId, query: Query, max: number): AsyncGenerator<unknown> {
    let cursor: string | null = null;
    let seen = 0;
    do {
      const pageQuery = { ...query, limit: '100', ...(cursor ? { cursor } : {}) };
      const page = (await this.send('GET', `${OPS_PREFIX}${OPS_ROUTES[operationId].path}`, { query: pageQuery })) as {
        data: unknown[];
        nextCursor: string | null;
      };
      for (const item of page.data) {
        if (seen >= max) return;
        seen += 1;
        yield item;
      }
      cursor = page.nextCursor;
    } while (cursor && seen < max);
  }

  /** Sends one request; resolves with the parsed JSON answer (null when empty). */
  private async send(
    method: Method,
    path: string,
    { query, body, headers = {}, file, raw = false }: RequestOptions & { file?: OpsFile; raw?: boolean },
  ): Promise<unknown> {
    const { baseUrl, token, requestId } = this.options;
    let answer: { status: number; text: string; retryAfter: string | null };
    try {
      const response = await this.fetch(`${baseUrl.replace(/\/+$/, '')}${withQuery(path, query)}`, {
        method,
        headers: {
          accept: raw ? '*/*' : 'application/json',
          ...(requestId ? { 'x-request-id': requestId } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(file ? { 'content-type': file.contentType } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(file ? { body: file.bytes } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
      answer = { status: response.status, retryAfter: response.headers.get('retry-after'), text: await response.text() };
    } catch (error) {
      throw OpsApiError.noAnswer(baseUrl, error);
    }
    if (answer.status < 200 || answer.status > 299) throw errorOfAnswer(answer.status, answer.text, answer.retryAfter);
    if (raw) return answer.text;
    if (!answer.text) return null;
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new OpsApiError(502, { detail: `The ledger answered ${answer.status} with a body that is not JSON.` });
    }
  }
}
