import { Agent as HttpsAgent } from 'node:https';
import { Agent as HttpAgent } from 'node:http';
import { createSecureContext } from 'node:tls';
import got, { type Got } from 'got';
import { WebhookUrlError, type WebhookUrlGuard } from '@kasa/net-guard';

/** At most this much of a receiver's answer is kept (docs/webhooks.md, Retries, DEAD events and replay). */
export const MAX_RESPONSE_BYTES = 4096;
const MAX_ERROR_CHARS = 1000;

/** What one HTTP attempt came to; `statusCode` is null when no response arrived. */
export interface SendResult {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  guard: WebhookUrlGuard;
  /** Certificate authorities to trust instead of Node's defaults (tests and local receivers). */
  ca?: string | string[];
  /** Most sockets kept per receiver host. */
  maxSocketsPerHost?: number;
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = `${typeof code === 'string' ? `${code}: ` : ''}${typeof message === 'string' ? message : String(error)}`;
  return text.slice(0, MAX_ERROR_CHARS);
}

/**
 * POSTs signed webhooks with got: keep-alive agents whose DNS lookup goes through the private-address guard
 * (checked again at every connect, so DNS rebinding fails), no redirects, no retries of its own (BullMQ
 * retries), one overall timeout, and at most 4 KiB of the answer read.
 */
export class WebhookSender {
  private readonly client: Got;
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(private readonly options: WebhookSenderOptions) {
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost ?? 64, lookup: options.guard.lookup as never };
    // One TLS context built once: passing `ca` per request would rebuild it (and stringify every
    // certificate into the agent's pool key) on every delivery.
    const secureContext = options.ca ? createSecureContext({ ca: options.ca }) : undefined;
    this.agents = {
      http: new HttpAgent(agentOptions),
      https: new HttpsAgent({ ...agentOptions, ...(secureContext ? { secureContext } : {}) }),
    };
    this.client = got.extend({
      agent: this.agents,
      dnsLookup: options.guard.lookup as never,
      followRedirect: false,
      retry: { limit: 0 },
      throwHttpErrors: false,
      decompress: false,
      timeout: { request: options.timeoutMs },
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const startedAt = new Date();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      // Literal addresses never reach a DNS lookup, so they are checked here before anything connects.
      this.options.guard.checkSyntax(url);
    } catch (error) {
      if (error instanceof WebhookUrlError)
        return { startedAt, durationMs: elapsed(), statusCode: null, error: `refused: webhook URL ${error.message}`, responseBody: null };
      throw error;
    }
    const { statusCode, error, responseBody } = await this.post(url, headers, body);
    return { startedAt, durationMs: elapsed(), statusCode, error, responseBody };
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private post(url: string, headers: Record<string, string>, body: string): Promise<Omit<SendResult, 'startedAt' | 'durationMs'>> {
    return new Promise((resolve) => {
      const stream = this.client.stream(url, { method: 'POST', headers, body });
      let statusCode: number | null = null;
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', ''); // PostgreSQL text cannot hold NUL
        resolve({ statusCode, error, responseBody: statusCode === null ? null : text.slice(0, MAX_RESPONSE_BYTES) });
        if (size >= MAX_RESPONSE_BYTES) stream.destroy();
      };
      stream.on('response', (response: { statusCode: number }) => {
        statusCode = response.statusCode;
      });
      stream.on('data', (chunk: Buffer) => {
        const take = Math.min(chunk.length, MAX_RESPONSE_BYTES - size);
        if (take > 0) chunks.push(chunk.subarray(0, take));
        size += take;
        if (size >= MAX_RESPONSE_BYTES) finish(null);
      });
      stream.on('end', () => finish(null));
      stream.on('error', (error: unknown) => finish(describe(error)));
    });
  }
}
