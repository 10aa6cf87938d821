/**
 * The Kasa partner API for a partner's backend, typed from the OpenAPI document (src/generated/kasa-api.ts).
 *
 * - Creates carry an Idempotency-Key: a fresh UUID per call unless you pass one, the SAME key on every retry
 *   of that call, so a retried create never makes a second record.
 * - Retries: 5xx, 429 (after its Retry-After), timeouts and network errors, with exponential backoff and
 *   jitter, at most `maxRetries` times. Other 4xx answers are never retried.
 * - Errors: `KasaApiError` with the API's `code` (typed), `status` and `requestId`.
 * - Lists: `list()` gives one page; `iterate()` follows `nextCursor` through every page.
 */
import { randomUUID } from 'node:crypto';
import type { components, operations } from './generated/kasa-api.js';
import { KasaApiError, KasaNetworkError, type Problem } from './errors.js';

type Schemas = components['schemas'];
type QueryOf<Op extends keyof operations> = operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type CreateDepositRequest = Schemas['CreateDepositRequest'];
export type CreateDepositResponse = Schemas['CreateDepositResponse'];
export type DepositIntent = Schemas['DepositIntent'];
export type DepositIntentListItem = Schemas['DepositIntentListItem'];
export type CreateWithdrawalRequest = Schemas['CreateWithdrawalRequest'];
export type CreateWithdrawalResponse = Schemas['CreateWithdrawalResponse'];
export type Withdrawal = Schemas['Withdrawal'];
export type WithdrawalListItem = Schemas['WithdrawalListItem'];
export type Event = Schemas['Event'];
export type EventWithAttempts = Schemas['EventWithAttempts'];
export type UpdateWebhookConfigRequest = Schemas['UpdateWebhookConfigRequest'];
export type WebhookConfigResponse = Schemas['WebhookConfigResponse'];
export type ListIntentsQuery = QueryOf<'listIntents'>;
export type ListWithdrawalsQuery = QueryOf<'listWithdrawals'>;
export type ListEventsQuery = QueryOf<'listEvents'>;

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface KasaClientOptions {
  /** The base URL Kasa gave you, without `/api/v1` (for example `https://api.kasa.example`). */
  baseUrl: string;
  /** `sk_live_...`: server-side only. */
  apiKey: string;
  /** Per attempt; default 10 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 4. */
  maxRetries?: number;
  /** First backoff in ms (doubled each retry, with jitter); default 250. */
  retryBaseMs?: number;
  /** A fetch implementation; default the global one. */
  fetch?: typeof fetch;
}

export interface CreateOptions {
  /** Your own key for this operation (reuse it to retry it later); default a fresh UUID. */
  idempotencyKey?: string;
}

const RETRY_AFTER_CAP_MS = 60_000;

export class KasaClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;

  readonly deposits = {
    /** Creates a deposit intent; answers the same intent for a retry of the same call. */
    create: (body: CreateDepositRequest, options: CreateOptions = {}) =>
      this.send<CreateDepositResponse>('POST', '/api/v1/external/deposits', {
        body,
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
  };

  readonly intents = {
    get: (intentId: string) => this.send<DepositIntent>('GET', `/api/v1/external/intents/${encodeURIComponent(intentId)}`),
    list: (query: ListIntentsQuery = {}) => this.send<Page<DepositIntentListItem>>('GET', '/api/v1/external/intents', { query }),
    iterate: (query: ListIntentsQuery = {}) => this.pages<DepositIntentListItem, ListIntentsQuery>((q) => this.intents.list(q), query),
  };

  readonly withdrawals = {
    create: (body: CreateWithdrawalRequest, options: CreateOptions = {}) =>
      this.send<CreateWithdrawalResponse>('POST', '/api/v1/external/withdrawals', {
        body,
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
    get: (withdrawalId: string) => this.send<Withdrawal>('GET', `/api/v1/external/withdrawals/${encodeURIComponent(withdrawalId)}`),
    list: (query: ListWithdrawalsQuery = {}) => this.send<Page<WithdrawalListItem>>('GET', '/api/v1/external/withdrawals', { query }),
    iterate: (query: ListWithdrawalsQuery = {}) =>
      this.pages<WithdrawalListItem, ListWithdrawalsQuery>((q) => this.withdrawals.list(q), query),
  };

  readonly events = {
    get: (eventId: string) => this.send<EventWithAttempts>('GET', `/api/v1/external/events/${encodeURIComponent(eventId)}`),
    list: (query: ListEventsQuery = {}) => this.send<Page<Event>>('GET', '/api/v1/external/events', { query }),
    iterate: (query: ListEventsQuery = {}) => this.pages<Event, ListEventsQuery>((q) => this.events.list(q), query),
    /** A new delivery cycle of a DELIVERED or DEAD event, with the same eventId. */
    replay: (eventId: string, options: CreateOptions = {}) =>
      this.send<Event>('POST', `/api/v1/external/events/${encodeURIComponent(eventId)}/replay`, {
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
  };

  readonly webhookConfig = {
    /** Sets the webhook URL; unless `rotateSecret` is false, the answer carries the new secret, once. */
    update: (body: UpdateWebhookConfigRequest) => this.send<WebhookConfigResponse>('PUT', '/api/v1/external/site/webhook-config', { body }),
  };

  constructor(private readonly options: KasaClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new TypeError('baseUrl must be an http(s) URL');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 4;
    this.retryBaseMs = options.retryBaseMs ?? 250;
  }

  private async *pages<T, Q extends { cursor?: string }>(list: (query: Q) => Promise<Page<T>>, query: Q): AsyncGenerator<T> {
    let cursor: string | undefined = query.cursor;
    do {
      const page = await list({ ...query, ...(cursor === undefined ? {} : { cursor }) });
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  private async send<T>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    request: { body?: unknown; query?: Record<string, string | number | undefined>; idempotencyKey?: string } = {},
  ): Promise<T> {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    // One key for every attempt of this call: a retry is the same operation.
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);

    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
      } catch (error) {
        if (attempt >= this.maxRetries) throw new KasaNetworkError(`${method} ${path}: no answer after ${attempt + 1} attempt(s)`, error);
        await sleep(this.backoff(attempt));
        continue;
      }
      if (response.ok) return (await response.json()) as T;
      const retriable = response.status >= 500 || response.status === 429;
      if (retriable && attempt < this.maxRetries) {
        await response.body?.cancel();
        await sleep(Math.max(this.backoff(attempt), retryAfterMs(response.headers.get('retry-after'))));
        continue;
      }
      throw await toError(response);
    }
  }

  /** Exponential backoff with full jitter: a random wait up to base * 2^attempt. */
  private backoff(attempt: number): number {
    return Math.round(Math.random() * this.retryBaseMs * 2 ** attempt);
  }
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, RETRY_AFTER_CAP_MS) : 0;
}

async function toError(response: Response): Promise<KasaApiError> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const text = await response.text();
  let problem: Problem;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = {
      type: 'about:blank',
      title: response.statusText,
      status: response.status,
      detail: text.slice(0, 200),
      error: 'internal_error',
    };
  }
  return new KasaApiError(problem, response.status, requestId);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
