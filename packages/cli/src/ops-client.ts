/** A small client of the ops API (`/ops/v1`), shared by every kasa command. */

export interface ProblemBody {
  title?: string;
  detail?: string;
  error?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** A non-2xx answer from the ops API, carrying its problem details. */
export class OpsApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: ProblemBody,
  ) {
    const fields = problem.errors?.map((e) => `${e.field} ${e.message}`).join('; ');
    super(`${status} ${problem.error ?? 'error'}: ${problem.detail ?? problem.title ?? 'request failed'}${fields ? ` (${fields})` : ''}`);
    this.name = 'OpsApiError';
  }
}

export interface OpsClientOptions {
  baseUrl: string;
  token?: string;
  fetch?: typeof fetch;
  /** Per-request timeout. */
  timeoutMs?: number;
}

export class OpsClient {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: OpsClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Sends one request; resolves with the parsed JSON body, throws {@link OpsApiError} for any non-2xx. */
  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/ops/v1${path}`;
    const response = await this.fetchImpl(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    }).catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`cannot reach the ledger at ${this.options.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { detail: text.slice(0, 200) };
    }
    if (!response.ok) throw new OpsApiError(response.status, (parsed ?? {}) as ProblemBody);
    return parsed as T;
  }

  get<T = unknown>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown = {}, headers?: Record<string, string>): Promise<T> {
    return this.request<T>('POST', path, body, headers);
  }

  delete<T = unknown>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  /** Follows `nextCursor` until the list is exhausted or `max` items were read. */
  async *paginate<T>(path: string, query: Record<string, string | undefined>, max = Infinity): AsyncGenerator<T> {
    let cursor: string | null = null;
    let seen = 0;
    do {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, value);
      params.set('limit', '100');
      if (cursor) params.set('cursor', cursor);
      const page: { data: T[]; nextCursor: string | null } = await this.get(`${path}?${params.toString()}`);
      for (const item of page.data) {
        if (seen >= max) return;
        seen += 1;
        yield item;
      }
      cursor = page.nextCursor;
    } while (cursor);
  }
}
