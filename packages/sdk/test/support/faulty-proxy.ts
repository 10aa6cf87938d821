/**
 * A real HTTP proxy in front of the gateway that misbehaves on purpose, request by request: it loses an answer
 * after passing the request on, answers in place of the gateway, or answers late. It records every request it
 * sees (method, path, Idempotency-Key, arrival time), so a test checks what the SDK actually sent.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  at: number;
}

/**
 * What the proxy does with one request:
 * - `forward`: pass it on and relay the answer;
 * - `lose`: pass it on (the gateway acts on it), then answer `status` instead of the gateway's answer;
 * - `refuse`: answer `status` without passing it on;
 * - `late`: pass it on and relay the answer after `delayMs`.
 */
export type Fault =
  | { kind: 'forward' }
  | { kind: 'lose'; status: number; headers?: Record<string, string> }
  | { kind: 'refuse'; status: number; headers?: Record<string, string> }
  | { kind: 'late'; delayMs: number };

export interface FaultyProxy {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const problem = (status: number) =>
  JSON.stringify({
    type: 'about:blank',
    title: 'Injected by the test proxy',
    status,
    detail: 'The test proxy answered instead of the gateway.',
    error: status === 429 ? 'rate_limited' : 'service_unavailable',
  });

/** `plan(request, index)` decides each request's fate; `index` counts every request the proxy has seen. */
export async function startFaultyProxy(targetUrl: string, plan: (request: SeenRequest, index: number) => Fault): Promise<FaultyProxy> {
  const requests: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const target = new URL(targetUrl);
  const server = createServer((req, res) => {
    res.on('error', () => undefined); // the client may have given up (a timeout) before a late answer
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        idempotencyKey: typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined,
        at: Date.now(),
      };
      const fault = plan(seen, requests.length);
      requests.push(seen);
      const answer = (status: number, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/problem+json', ...headers }).end(problem(status));
      if (fault.kind === 'refuse') {
        answer(fault.status, fault.headers);
        return;
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (reply) => {
        const body: Buffer[] = [];
        reply.on('data', (chunk: Buffer) => body.push(chunk));
        reply.on('end', () => {
          if (fault.kind === 'lose') return void answer(fault.status, fault.headers);
          const relay = () => {
            if (!res.destroyed) res.writeHead(reply.statusCode ?? 502, reply.headers).end(Buffer.concat(body));
          };
          if (fault.kind === 'late') {
            const timer = setTimeout(() => {
              timers.delete(timer);
              relay();
            }, fault.delayMs);
            timers.add(timer);
          } else relay();
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
