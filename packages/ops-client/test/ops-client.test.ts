/** The ops client against a real HTTP server on a free loopback port: what it sends, and how answers map. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { OpsApiError, OpsClient, seg, withQuery } from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Reply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer only after this many milliseconds. */
  delayMs?: number;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let reply: (request: Seen) => Reply = () => ({ status: 200, body: '{}' });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      const answer = reply(request);
      setTimeout(
        () => res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? ''),
        answer.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  reply = () => ({ status: 200, body: '{}' });
});

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify(value),
  headers,
});

/** What the call threw; fails the test when it did not throw. */
async function failureOf(call: Promise<unknown>): Promise<OpsApiError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpsApiError);
  return error as OpsApiError;
}

describe('OpsClient requests', () => {
  it('sends the bearer token and request id to a path under /ops/v1, and parses the JSON answer', async () => {
    reply = () => json(200, { data: [{ intentId: 'i-1' }], nextCursor: null });
    const client = new OpsClient({ baseUrl: `${baseUrl}/`, token: 'tok-1', requestId: 'req-1' });
    const page = await client.call('opsListIntents');
    expect(page.data[0]?.intentId).toBe('i-1');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/ops/v1/intents', body: '' });
    expect(seen[0]?.headers).toMatchObject({ authorization: 'Bearer tok-1', 'x-request-id': 'req-1', accept: 'application/json' });
    expect(seen[0]?.headers['content-type']).toBeUndefined();
  });

  it('encodes query values and leaves out empty and undefined ones', async () => {
    await new OpsClient({ baseUrl }).call('listAudit', {
      query: { action: 'INTENT.APPROVED', entityId: 'a b&c=d', siteId: '', actorId: undefined },
    });
    expect(seen[0]?.url).toBe('/ops/v1/audit?action=INTENT.APPROVED&entityId=a+b%26c%3Dd');
    expect(withQuery('/x', { a: '' })).toBe('/x');
    expect(`/intents/${seg('../sites?x=1')}`).toBe('/intents/..%2Fsites%3Fx%3D1');
  });

  it('sends no authorization header without a token', async () => {
    await new OpsClient({ baseUrl }).call('whoAmI');
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('posts JSON ({} by default) with extra headers, and reads an empty answer as null', async () => {
    reply = () => ({ status: 202 });
    const client = new OpsClient({ baseUrl, token: 't' });
    expect(await client.call('opsReplayEvent', { params: { eventId: 'e-1' }, headers: { 'idempotency-key': 'k-1' } })).toBeNull();
    await client.request('PUT', '/things/1', { body: { name: 'x' } });
    await client.call('revokeApiKey', { params: { apiKeyId: 'k-9' } });
    expect(seen.map((r) => [r.method, r.url, r.body])).toEqual([
      ['POST', '/ops/v1/events/e-1/replay', '{}'],
      ['PUT', '/ops/v1/things/1', '{"name":"x"}'],
      ['DELETE', '/ops/v1/api-keys/k-9', ''],
    ]);
    expect(seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'k-1' });
  });

  it('logs in with the browser address vouched for by the internal token', async () => {
    reply = () => json(201, { token: 'op-token', tokenId: 't-1', expiresAt: '2030-01-01T00:00:00.000Z', operator: { operatorId: 'o-1' } });
    const result = await new OpsClient({ baseUrl }).login(
      { email: 'a@b.test', password: 'pw' },
      { address: '203.0.113.7', internalToken: 'internal' },
    );
    expect(result.token).toBe('op-token');
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/ops/v1/login', body: '{"email":"a@b.test","password":"pw"}' });
    expect(seen[0]?.headers).toMatchObject({ 'x-internal-token': 'internal', 'x-kasa-client-address': '203.0.113.7' });
  });

  it('scopes a client to another token and request id with with(), keeping the original unchanged', async () => {
    const shared = new OpsClient({ baseUrl, token: 'admin', connections: 2 });
    await shared.with({ token: 'operator', requestId: 'req-9' }).call('whoAmI');
    await shared.call('whoAmI');
    expect(seen.map((r) => [r.headers.authorization, r.headers['x-request-id']])).toEqual([
      ['Bearer operator', 'req-9'],
      ['Bearer admin', undefined],
    ]);
    await shared.close();
  });

  it('probes readiness at /readyz, outside the ops API', async () => {
    await new OpsClient({ baseUrl }).ready();
    expect(seen[0]?.url).toBe('/readyz');
  });

  it('pages through nextCursor until the list ends or max items were read', async () => {
    reply = ({ url }) => {
      const cursor = new URL(url, baseUrl).searchParams.get('cursor');
      return cursor === null ? json(200, { data: [1, 2], nextCursor: 'c2' }) : json(200, { data: [3], nextCursor: null });
    };
    const client = new OpsClient({ baseUrl });
    const all: unknown[] = [];
    for await (const item of client.paginate('opsListEvents', { status: 'DEAD', type: undefined })) all.push(item);
    expect(all).toEqual([1, 2, 3]);
    expect(seen.map((r) => r.url)).toEqual(['/ops/v1/events?status=DEAD&limit=100', '/ops/v1/events?status=DEAD&limit=100&cursor=c2']);

    seen.length = 0;
    const firstTwo: unknown[] = [];
    for await (const item of client.paginate('opsListEvents', {}, 2)) firstTwo.push(item);
    expect(firstTwo).toEqual([1, 2]);
    expect(seen).toHaveLength(1);
  });
});

describe('OpsApiError', () => {
  it('carries the status, the problem details and a message naming code, detail and fields', async () => {
    const problem = {
      type: 'https://docs.kasa.example/errors.md#validation_failed',
      title: 'The request is not valid',
      status: 400,
      detail: 'One or more fields are not valid.',
      error: 'validation_failed',
      errors: [{ field: 'amount', message: 'must be positive' }, { nonsense: true }],
    };
    reply = () => json(400, problem);
    const error = await failureOf(
      new OpsClient({ baseUrl }).call('approveIntent', { params: { intentId: 'i-1' }, body: { amount: '-1' } }),
    );
    expect(error).toMatchObject({
      status: 400,
      problem,
      code: 'validation_failed',
      detail: problem.detail,
      answered: true,
      retryAfterSeconds: null,
    });
    expect(error.fieldErrors).toEqual([{ field: 'amount', message: 'must be positive' }]);
    expect(error.message).toBe('400 validation_failed: One or more fields are not valid. (amount must be positive)');
  });

  it('reads the reason of a conflict, and none when the ledger names one it does not know', async () => {
    const detail = 'The intent is APPROVED; a transfer cannot be assigned to a decided intent. Nothing was changed.';
    reply = () => json(409, { error: 'conflict', reason: 'intent_decided', detail });
    const decided = await failureOf(
      new OpsClient({ baseUrl }).call('assignBankTransfer', { params: { bankTransferId: 't-1' }, body: { intentId: 'i-1' } }),
    );
    expect(decided).toMatchObject({ status: 409, code: 'conflict', reason: 'intent_decided', detail });
    expect(decided.message).toBe(`409 conflict (intent_decided): ${detail}`);
    reply = () => json(409, { error: 'conflict', reason: 'not_a_reason', detail: 'Something new.' });
    const unknown = await failureOf(
      new OpsClient({ baseUrl }).call('assignBankTransfer', { params: { bankTransferId: 't-1' }, body: { intentId: 'i-1' } }),
    );
    expect(unknown.reason).toBeNull();
    expect(unknown.message).toBe('409 conflict: Something new.');
  });

  it('passes on Retry-After in seconds (and ignores the date form)', async () => {
    reply = () => json(429, { error: 'rate_limited', detail: 'Too many login attempts.' }, { 'retry-after': '240' });
    const throttled = await failureOf(new OpsClient({ baseUrl }).login({ email: 'a@b.test', password: 'x' }));
    expect(throttled).toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 240 });

    reply = () => json(503, { error: 'service_unavailable' }, { 'retry-after': 'Wed, 21 Oct 2037 07:28:00 GMT' });
    expect((await failureOf(new OpsClient({ baseUrl }).call('whoAmI'))).retryAfterSeconds).toBeNull();
  });

  it('keeps the start of a body that is not JSON as the detail, with a code from the status', async () => {
    reply = () => ({ status: 502, body: '<html>Bad Gateway</html>', headers: { 'content-type': 'text/html' } });
    const error = await failureOf(new OpsClient({ baseUrl }).call('listBalances'));
    expect(error).toMatchObject({ status: 502, problem: { detail: '<html>Bad Gateway</html>' }, code: 'service_unavailable' });
    expect(error.message).toBe('502 error: <html>Bad Gateway</html>');

    reply = () => ({ status: 404 });
    expect(await failureOf(new OpsClient({ baseUrl }).request('GET', '/nothing'))).toMatchObject({
      status: 404,
      problem: {},
      code: 'unknown',
      detail: '',
    });
  });

  it('is a 503 that was not answered when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(new OpsClient({ baseUrl: url }).call('whoAmI'));
    expect(error).toMatchObject({ status: 503, answered: false, code: 'service_unavailable', detail: 'The ledger did not answer.' });
    expect(error.message).toBe(`cannot reach the ledger at ${url}: ECONNREFUSED`);
  });

  it('is a 503 that was not answered when the ledger is slower than the timeout', async () => {
    reply = () => ({ ...json(200, {}), delayMs: 1_000 });
    const error = await failureOf(new OpsClient({ baseUrl, timeoutMs: 100 }).call('whoAmI'));
    expect(error).toMatchObject({ status: 503, answered: false });
    expect(error.message).toContain('timeout');
  });
});
