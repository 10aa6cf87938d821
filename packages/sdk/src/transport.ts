/**
 * One API call with its retries: the same request (and so the same Idempotency-Key) on every attempt, exponential
 * backoff with full jitter, `Retry-After` honoured, a timeout per attempt, 4xx answers (other than 429) thrown at once.
 */
import { KasaApiError, KasaNetworkError, type Problem } from './errors.js';

/** How long a `Retry-After` may make one wait, at most: longer answers are waited for this long. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The largest backoff between two attempts, whatever the attempt number. */
export const MAX_BACKOFF_MS = 8_000;

/**
 * When a failed attempt may be repeated.
 * - `any`: after a 5xx, a 429, a timeout or a network error (reads, and writes made safe by an Idempotency-Key).
 * - `unprocessed`: only when the API cannot have acted on the request: a 429 (refused before anything ran) or a
 *   connection that was never made. For writes without an Idempotency-Key, where a repeat would act twice.
 */
export type RetryMode = 'any' | 'unprocessed';

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  fetch: typeof fetch;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
  query?: object;
  /** Sent unchanged on every attempt of this call. */
  idempotencyKey?: string;
  retry?: RetryMode;
}

/** Connection errors raised before a request could reach the API. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export async function callApi<T>(options: TransportOptions, request: ApiRequest): Promise<T> {
  const url = new URL(`${options.baseUrl}${request.path}`);
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  // One key for every attempt of this call: a retry is the same operation, so the API answers it once.
  if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const mode = request.retry ?? 'any';
  const label = `${request.method} ${request.path}`;

  for (let attempt = 0; ; attempt += 1) {
    const canRetry = attempt < options.maxRetries;
    let response: Response;
    let text: string;
    try {
      // The signal covers the body as well, so a stalled answer times out too.
      response = await options.fetch(url, { method: request.method, headers, body, signal: AbortSignal.timeout(options.timeoutMs) });
      text = await response.text();
    } catch (error) {
      const retriable = mode === 'any' || NOT_CONNECTED.has(connectionCode(error) ?? '');
      if (!canRetry || !retriable) throw new KasaNetworkError(`${label}: no answer after ${attempt + 1} attempt(s)`, error);
      await sleep(backoffMs(options.retryBaseMs, attempt));
      continue;
    }
    if (response.ok) return JSON.parse(text) as T;
    const retriable = response.status === 429 || (mode === 'any' && response.status >= 500);
    if (canRetry && retriable) {
      await sleep(Math.max(backoffMs(options.retryBaseMs, attempt), retryAfterMs(response.headers.get('retry-after'))));
      continue;
    }
    throw toApiError(response, text);
  }
}

/** Exponential backoff with full jitter: a random wait up to base * 2^attempt, never above {@link MAX_BACKOFF_MS}. */
export function backoffMs(baseMs: number, attempt: number): number {
  return Math.round(Math.random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt));
}

/** `Retry-After` in ms (delay-seconds or an HTTP date), capped at {@link MAX_RETRY_AFTER_MS}; 0 when absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === '') return 0;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : 0;
}

/** The code of an answer that is not a problem document (from a proxy, say), by its status. */
const FALLBACK_CODES: Partial<Record<number, Problem['error']>> = {
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  429: 'rate_limited',
  503: 'service_unavailable',
};

function toApiError(response: Response, text: string): KasaApiError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  let problem: Problem | undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Problem> | null;
    if (parsed !== null && typeof parsed === 'object' && typeof parsed.error === 'string') problem = parsed as Problem;
  } catch {
    // Not a problem document (a proxy's error page, say): described below from the status.
  }
  problem ??= {
    type: 'about:blank',
    title: response.statusText,
    status: response.status,
    detail: text.slice(0, 200),
    error: FALLBACK_CODES[response.status] ?? 'internal_error',
  };
  return new KasaApiError(problem, response.status, requestId);
}

/** The system error code of a failed fetch (undici puts it on `cause`, sometimes inside an AggregateError). */
function connectionCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; errors?: { code?: unknown }[] } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  const codes = new Set(cause?.errors?.map((e) => e.code));
  const [only] = codes;
  return codes.size === 1 && typeof only === 'string' ? only : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
