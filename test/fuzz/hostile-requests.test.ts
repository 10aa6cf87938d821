/**
 * At least 10,000 generated requests across the partner API (gateway) and the ops API (ledger): hostile
 * strings, broken encodings, odd numbers, headers and query strings, sent as raw bytes. No answer may be a
 * 5xx, both services must still be healthy afterwards, and no refused request may leave a row behind: every
 * table's growth equals the creates that were answered 201. The run is bounded in count and in time; the
 * seed is printed on failure (`KASA_FUZZ_SEED` repeats a run, `KASA_FUZZ_REQUESTS` changes its size).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Pool } from 'undici';
import { startGateway, type GatewayService } from '@kasa/gateway';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, expectStatus, httpJson, makeTrIban, type TestEnvironment } from '@kasa/testkit';

const REQUESTS = Number(process.env.KASA_FUZZ_REQUESTS ?? 10_000);
const SEED = Number(process.env.KASA_FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = Number(process.env.KASA_FUZZ_CONCURRENCY ?? 8);
const DEADLINE_MS = 150_000;

let env: TestEnvironment;
let ledger: LedgerService;
let gateway: GatewayService;
let fixture: {
  siteId: string;
  slug: string;
  apiKey: string;
  intentId: string;
  referenceNo: string;
  depositToken: string;
  withdrawalId: string;
  bankTransferId: string;
  eventId: string;
};

beforeAll(async () => {
  env = await createTestEnvironment({ INVALID_KEY_ATTEMPTS_PER_MINUTE: '100000' });
  ledger = await startLedger(env.config, 0);
  gateway = await startGateway({ ...env.config, ledgerUrl: ledger.url }, 0);
  const admin = { authorization: `Bearer ${env.config.opsBootstrapToken}` };
  const ops = (method: string, path: string, body?: unknown) => httpJson(`${ledger.url}/ops/v1${path}`, method, admin, body);
  expectStatus(
    await ops('POST', '/receiving-accounts', { bankName: 'Fuzz Bankası', holderName: 'Kasa A.Ş.', iban: makeTrIban(77) }),
    201,
    'account',
  );
  const slug = `fuzz-${randomUUID().slice(0, 8)}`;
  const site = expectStatus(await ops('POST', '/sites', { slug, name: 'Fuzz Site', rateLimitPerMinute: 100000 }), 201, 'site').body;
  const key = expectStatus(await ops('POST', `/sites/${site.siteId}/api-keys`, {}), 201, 'key').body;
  const partner = { authorization: `Bearer ${key.apiKey}`, 'idempotency-key': randomUUID() };
  const deposit = expectStatus(
    await httpJson(`${gateway.url}/api/v1/external/deposits`, 'POST', partner, { externalUserId: 'fuzz', amount: '150000' }),
    201,
    'deposit',
  ).body;
  const withdrawal = expectStatus(
    await httpJson(
      `${gateway.url}/api/v1/external/withdrawals`,
      'POST',
      { ...partner, 'idempotency-key': randomUUID() },
      {
        externalUserId: 'fuzz',
        amount: '5000',
        targetIban: makeTrIban(78),
        targetHolderName: 'Ayşe Yılmaz',
      },
    ),
    201,
    'withdrawal',
  ).body;
  const transfer = expectStatus(
    await ops('POST', '/bank-transfers', {
      bankTxId: `fz-${randomUUID()}`,
      amount: '150000',
      senderName: 'Ayşe',
      senderIban: makeTrIban(79),
      description: deposit.referenceNo,
      receivedAt: new Date().toISOString(),
    }),
    201,
    'transfer',
  ).body;
  const second = await createApprovedEvent(ops, key.apiKey);
  fixture = {
    siteId: site.siteId,
    slug,
    apiKey: key.apiKey,
    intentId: deposit.intentId,
    referenceNo: deposit.referenceNo,
    depositToken: new URL(deposit.depositUrl).pathname.split('/').pop() as string,
    withdrawalId: withdrawal.withdrawalId,
    bankTransferId: transfer.bankTransferId,
    eventId: second,
  };
}, 60_000);

/** A deposit approved end to end, so the events surface has a real event to look up and replay. */
async function createApprovedEvent(
  ops: (method: string, path: string, body?: unknown) => ReturnType<typeof httpJson>,
  apiKey: string,
): Promise<string> {
  const deposit = expectStatus(
    await httpJson(
      `${gateway.url}/api/v1/external/deposits`,
      'POST',
      { authorization: `Bearer ${apiKey}`, 'idempotency-key': randomUUID() },
      { externalUserId: 'fuzz-2', amount: '20000' },
    ),
    201,
    'deposit',
  ).body;
  expectStatus(
    await ops('POST', '/bank-transfers', {
      bankTxId: `fz-${randomUUID()}`,
      amount: '20000',
      senderName: 'Ali',
      senderIban: makeTrIban(80),
      description: deposit.referenceNo,
      receivedAt: new Date().toISOString(),
    }),
    201,
    'transfer',
  );
  return expectStatus(await ops('POST', `/intents/${deposit.intentId}/approve`, {}), 200, 'approve').body.eventId;
}

afterAll(async () => {
  await gateway?.stop();
  await ledger?.stop();
  await env?.cleanup();
});

// ---------------------------------------------------------------------------------------------------------
// Generators

const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\ufffd',
  '\u202e',
  '\r\n',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '%00',
  '%',
  '%ZZ',
  '2026-12-31T23:59:60Z',
  '2026-02-30T00:00:00Z',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '9'.repeat(19),
  '9'.repeat(40),
  '18446744073709551616',
  '-1',
  '0',
  '00',
  '1e400',
  'NaN',
  'Infinity',
  '1.5',
  '1,5',
  'ＴＲＹ',
  'İıŞşĞğÜüÖöÇç',
  'TR33 0006 1005 1978 6457 8413 26',
  'KD2345678A',
  'x'.repeat(300),
  'x'.repeat(5000),
  '__proto__',
  'constructor',
  'null',
  'true',
  '[]',
  '{}',
];

const hostileString = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.uuid().map((id) => (Math.random() < 0.5 ? id.toUpperCase() : id)) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53, 0.1, 1e-300) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 3 }) },
);

/** A body for an endpoint: its valid shape with one or more fields made hostile, extra or missing, or bytes. */
function bodyFor(valid: Record<string, unknown>): fc.Arbitrary<Buffer | undefined> {
  const fields = Object.keys(valid);
  // Mostly one field made hostile with the rest valid, so the value reaches the code behind validation;
  // sometimes several changes, an extra field or a missing one.
  const oneField = fc
    .tuple(fc.constantFrom(...fields, 'extra'), hostileValue)
    .map(([field, value]) => Buffer.from(JSON.stringify({ ...valid, [field]: value })));
  const mutated = fc
    .tuple(
      fc.subarray(fields, { maxLength: Math.min(1, fields.length) }),
      fc.array(fc.tuple(fc.constantFrom(...fields, 'extra', '__proto__', 'a\u0000', '\ud800'), hostileValue), { maxLength: 3 }),
    )
    .map(([dropped, changes]) => {
      const body: Record<string, unknown> = { ...valid };
      for (const field of dropped) delete body[field];
      for (const [field, value] of changes)
        Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
      return Buffer.from(JSON.stringify(body));
    });
  const deep = fc.integer({ min: 1, max: 20000 }).map((depth) => Buffer.from(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`));
  const invalidUtf8 = fc
    .constantFrom(
      Buffer.from([0xc3, 0x28]),
      Buffer.from([0xff, 0xfe]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xf4, 0x90, 0x80, 0x80]),
    )
    .map((bytes) => Buffer.concat([Buffer.from(JSON.stringify(valid).slice(0, -1) + ',"x":"'), bytes, Buffer.from('"}')]));
  return fc.oneof(
    { weight: 8, arbitrary: oneField },
    { weight: 3, arbitrary: mutated },
    { weight: 1, arbitrary: fc.constant(Buffer.from(JSON.stringify(valid))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: hostileValue.map((value) => Buffer.from(JSON.stringify(value) ?? 'undefined')) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(70 * 1024, 0x20)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/**
 * Percent-encodes anything, lone surrogates included: those go out as the three bytes a careless encoder
 * would write for the code unit (ED A0 80 for U+D800), which is not UTF-8 and must be refused.
 */
function encodeAny(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const unit = ch.charCodeAt(0);
        if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
          return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

/** A query string: mostly one parameter made hostile beside valid ones, sometimes several, encoded or raw. */
const PARAMS = [
  'status',
  'createdFrom',
  'createdTo',
  'cursor',
  'limit',
  'type',
  'siteId',
  'referenceNo',
  'action',
  'entityId',
  'x',
  'status[]',
  '__proto__',
];
const NASTY_INSTANTS = [
  '2026-12-31T23:59:60Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999+14:00',
  '2026-01-01T00:00:00',
  '2026-01-01T24:00:00Z',
  '1969-12-31T23:59:59Z',
];
const paramValue = (name: string): fc.Arbitrary<string> => {
  const anything = hostileValue.map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')));
  return name.startsWith('created') ? fc.oneof(fc.constantFrom(...NASTY_INSTANTS), anything) : anything;
};
const hostileParam = fc
  .constantFrom(...PARAMS)
  .chain((name) => fc.tuple(fc.constant(name), paramValue(name), fc.constantFrom('encoded', 'encoded', 'raw-bytes', 'plain')));
const queryString = fc
  .oneof({ weight: 3, arbitrary: hostileParam.map((param) => [param]) }, { weight: 1, arbitrary: fc.array(hostileParam, { maxLength: 4 }) })
  .map((pairs) =>
    pairs
      .map(([name, value, how]) => {
        if (how === 'encoded') return `${encodeURIComponent(name)}=${encodeAny(value)}`;
        if (how === 'raw-bytes')
          return `${name}=${[...Buffer.from(value, 'latin1')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`;
        return `${name}=${value.replace(/[^\x21-\x7e]/g, '_').replace(/[#&]/g, '_')}`;
      })
      .join('&'),
  );

/** An id for a path: a real one, its upper-case form, a random UUID, or something hostile (encoded). */
function pathId(real: () => string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(null).map(() => real()),
    fc.constant(null).map(() => real().toUpperCase()),
    fc.uuid(),
    hostileString.map(encodeAny),
    fc.constantFrom('%00', '%FF', '%E0%A4%A', '..', '%2e%2e', '%2F', 'null'),
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset="UTF-8"',
  'APPLICATION/JSON',
  '',
];

/** Header sets: the right credentials most of the time, and odd ones otherwise. */
function headersFor(kind: 'partner' | 'ops'): fc.Arbitrary<Record<string, string>> {
  const token = () => (kind === 'partner' ? `Bearer ${fixture.apiKey}` : `Bearer ${env.config.opsBootstrapToken}`);
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(null).map(token) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic Zm9vOmJhcg==',
        'Bearer sk_live_x_y',
        'bearer   ',
        `Bearer sk_live_nope_${'A'.repeat(43)}`,
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((value) => `Bearer ${value.replace(/[\r\n\0]/g, '')}`) },
  );
  const idempotencyKey = fc.oneof(
    { weight: 6, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a', 'x'.repeat(256), 'x'.repeat(255), 'key with spaces', 'ünïcode') },
  );
  return fc
    .record({
      authorization,
      idempotencyKey,
      contentType: fc.oneof(
        { weight: 6, arbitrary: fc.constant('application/json') },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      requestId: fc.option(
        fc.string({ unit: 'binary-ascii', maxLength: 140 }).map((value) => value.replace(/[\r\n\0]/g, '')),
        { nil: undefined },
      ),
      accept: fc.option(fc.constantFrom('*/*', 'text/html', 'application/xml', ''), { nil: undefined }),
    })
    .map((h) => {
      const headers: Record<string, string> = {};
      if (h.authorization) headers.authorization = h.authorization;
      // Header values must be Latin-1 on the wire; anything else is sent as its UTF-8 bytes read as Latin-1.
      headers['idempotency-key'] = Buffer.from(h.idempotencyKey, 'utf8').toString('latin1');
      if (h.contentType) headers['content-type'] = h.contentType;
      if (h.requestId !== undefined) headers['x-request-id'] = h.requestId;
      if (h.accept !== undefined) headers.accept = h.accept;
      return headers;
    });
}

interface Planned {
  service: 'gateway' | 'ledger';
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: Buffer;
  headers: Record<string, string>;
  /** The table a 201 answer adds a row to. */
  creates?: Table;
}

type Table = 'deposit' | 'withdrawal' | 'site' | 'apiKey' | 'bankTransfer' | 'operator' | 'receivingBankAccount';

function endpoint(
  service: Planned['service'],
  method: Planned['method'],
  path: fc.Arbitrary<string>,
  valid: Record<string, unknown> | null,
  creates?: Table,
): fc.Arbitrary<Planned> {
  return fc
    .tuple(path, valid ? bodyFor(valid) : fc.constant(undefined), queryString, headersFor(service === 'gateway' ? 'partner' : 'ops'))
    .map(([p, body, query, headers]) => ({
      service,
      method,
      path: query && method === 'GET' ? `${p}?${query}` : p,
      ...(body !== undefined ? { body } : {}),
      headers,
      ...(creates ? { creates } : {}),
    }));
}

function plans(): fc.Arbitrary<Planned> {
  const intent = pathId(() => fixture.intentId);
  const withdrawal = pathId(() => fixture.withdrawalId);
  const event = pathId(() => fixture.eventId);
  const site = pathId(() => fixture.siteId);
  const transfer = pathId(() => fixture.bankTransferId);
  const api = '/api/v1/external';
  const c = fc.constant;
  return fc.oneof(
    endpoint(
      'gateway',
      'POST',
      c(`${api}/deposits`),
      { externalUserId: 'u-1', externalUserLabel: 'Ayşe', amount: '150000', currency: 'TRY' },
      'deposit',
    ),
    endpoint(
      'gateway',
      'POST',
      c(`${api}/withdrawals`),
      { externalUserId: 'u-1', amount: '5000', targetIban: makeTrIban(81), targetHolderName: 'Ali Veli' },
      'withdrawal',
    ),
    endpoint(
      'gateway',
      'GET',
      intent.map((id) => `${api}/intents/${id}`),
      null,
    ),
    endpoint(
      'gateway',
      'GET',
      withdrawal.map((id) => `${api}/withdrawals/${id}`),
      null,
    ),
    endpoint('gateway', 'GET', c(`${api}/intents`), null),
    endpoint('gateway', 'GET', c(`${api}/withdrawals`), null),
    endpoint('gateway', 'GET', c(`${api}/events`), null),
    endpoint(
      'gateway',
      'GET',
      event.map((id) => `${api}/events/${id}`),
      null,
    ),
    endpoint(
      'gateway',
      'POST',
      event.map((id) => `${api}/events/${id}/replay`),
      {},
    ),
    endpoint('gateway', 'PUT', c(`${api}/site/webhook-config`), { webhookUrl: 'https://partner.example/hooks', rotateSecret: false }),
    endpoint(
      'gateway',
      'GET',
      pathId(() => fixture.depositToken).map((token) => `/deposit/${token}`),
      null,
    ),
    endpoint(
      'gateway',
      'GET',
      fc.string({ maxLength: 30 }).map((p) => `/${encodeURIComponent(p)}`),
      null,
    ),
    endpoint(
      'ledger',
      'POST',
      c('/ops/v1/sites'),
      {
        slug: 'fz-site',
        name: 'Fuzz',
        webhookUrl: 'https://p.example/h',
        rateLimitPerMinute: 10,
        depositTtlSeconds: 60,
        minAmount: '100',
        maxAmount: '1000000',
      },
      'site',
    ),
    endpoint(
      'ledger',
      'POST',
      site.map((id) => `/ops/v1/sites/${id}/api-keys`),
      {},
      'apiKey',
    ),
    endpoint(
      'ledger',
      'GET',
      site.map((id) => `/ops/v1/sites/${id}/balance`),
      null,
    ),
    endpoint(
      'ledger',
      'POST',
      c('/ops/v1/bank-transfers'),
      {
        bankTxId: 'fz-1',
        amount: '1000',
        currency: 'TRY',
        senderName: 'Ayşe',
        senderIban: makeTrIban(82),
        description: 'KD2345678',
        receivedAt: '2026-01-01T00:00:00Z',
      },
      'bankTransfer',
    ),
    endpoint(
      'ledger',
      'POST',
      transfer.map((id) => `/ops/v1/bank-transfers/${id}/assign`),
      { intentId: randomUUID() },
    ),
    endpoint(
      'ledger',
      'POST',
      intent.map((id) => `/ops/v1/intents/${id}/approve`),
      { amount: '999999999999999999' },
    ),
    endpoint(
      'ledger',
      'POST',
      intent.map((id) => `/ops/v1/intents/${id}/reject`),
      { reason: 'fuzz' },
    ),
    endpoint(
      'ledger',
      'POST',
      withdrawal.map((id) => `/ops/v1/withdrawals/${id}/${['approve', 'reject', 'mark-sent', 'mark-returned'][id.length % 4]}`),
      { reason: 'fuzz' },
    ),
    endpoint(
      'ledger',
      'GET',
      fc.constantFrom(
        '/ops/v1/intents',
        '/ops/v1/withdrawals',
        '/ops/v1/bank-transfers',
        '/ops/v1/audit',
        '/ops/v1/events',
        '/ops/v1/sites',
        '/ops/v1/balances',
      ),
      null,
    ),
    endpoint(
      'ledger',
      'GET',
      intent.map((id) => `/ops/v1/intents/${id}`),
      null,
    ),
    endpoint('ledger', 'POST', c('/ops/v1/login'), { email: 'nobody@kasa.test', password: 'not-the-password' }),
    endpoint(
      'ledger',
      'POST',
      c('/ops/v1/operators'),
      { email: 'fz@kasa.test', name: 'Fuzz Op', role: 'REVIEWER', password: 'a-long-password-1' },
      'operator',
    ),
    endpoint(
      'ledger',
      'POST',
      c('/ops/v1/receiving-accounts'),
      { bankName: 'Bank', holderName: 'Kasa', iban: makeTrIban(83) },
      'receivingBankAccount',
    ),
    endpoint(
      'ledger',
      'POST',
      event.map((id) => `/ops/v1/events/${id}/replay`),
      {},
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------

const VALID_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Sends a request byte for byte over a fresh socket (`Connection: close`) and reads the status line: for
 * header values no HTTP client will send (control characters), which the servers must still answer.
 */
function rawRequest(port: number, plan: Planned): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(new Error('raw request timed out')), 15_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answer = (): Answer | null => {
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      return status === 0 ? null : { status, text, replayed: /\r\nidempotent-replayed: true\r\n/i.test(text) };
    };
    socket.on('error', (error) => {
      clearTimeout(timer);
      // Node 24's HTTP server answers a request its parser refuses (400) and closes at once, so the rest of a large
      // body still in flight is reset: the answer already arrived and counts; a reset before any answer does not.
      const answered = answer();
      if (answered && (error as NodeJS.ErrnoException).code === 'ECONNRESET') resolve(answered);
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const answered = answer();
      if (answered) resolve(answered);
      else reject(new Error(`no HTTP answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 80))}`));
    });
    const lines = [`${plan.method} ${plan.path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close'];
    for (const [name, value] of Object.entries(plan.headers)) lines.push(`${name}: ${value}`);
    if (plan.body !== undefined) lines.push(`content-length: ${plan.body.length}`);
    socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), plan.body ?? Buffer.alloc(0)]));
  });
}

/** A status, the body, and whether it replays an earlier answer (a replayed 201 created nothing). */
interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

async function send(pools: Record<Planned['service'], Pool>, plan: Planned): Promise<Answer> {
  if (!Object.values(plan.headers).every((value) => VALID_HEADER_VALUE.test(value))) {
    return rawRequest(Number(new URL(plan.service === 'gateway' ? gateway.url : ledger.url).port), plan);
  }
  const response = await pools[plan.service].request({
    method: plan.method,
    path: plan.path,
    headers: plan.headers,
    ...(plan.body !== undefined ? { body: plan.body } : {}),
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  return { status: response.statusCode, text: await response.body.text(), replayed: response.headers['idempotent-replayed'] === 'true' };
}

const TABLES: Table[] = ['deposit', 'withdrawal', 'site', 'apiKey', 'bankTransfer', 'operator', 'receivingBankAccount'];

async function counts(): Promise<Record<Table, number>> {
  const db = ledger.deps.db;
  const entries = await Promise.all(
    TABLES.map(async (table) => [table, await (db[table] as unknown as { count(): Promise<number> }).count()] as const),
  );
  return Object.fromEntries(entries) as Record<Table, number>;
}

describe('hostile requests', () => {
  it(`${REQUESTS} generated requests: no 5xx, no crash, no row from a refused request (seed printed on failure)`, async () => {
    const requests = fc.sample(plans(), { numRuns: REQUESTS, seed: SEED });
    const before = await counts();
    const created: Record<Table, number> = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<Table, number>;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const pools = {
      gateway: new Pool(gateway.url, { connections: CONCURRENCY }),
      ledger: new Pool(ledger.url, { connections: CONCURRENCY }),
    };
    const deadline = Date.now() + DEADLINE_MS;
    let next = 0;
    let sent = 0;

    async function lane() {
      while (next < requests.length && Date.now() < deadline) {
        const plan = requests[next] as Planned;
        next += 1;
        if (process.env.KASA_FUZZ_DEBUG)
          process.stderr.write(
            `> ${plan.method} ${plan.service} ${plan.path.slice(0, 60)} ${plan.body?.length ?? '-'} ${JSON.stringify(plan.headers).slice(0, 150)}\n`,
          );
        try {
          const response = await send(pools, plan);
          sent += 1;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status >= 500)
            failures.push(
              `${response.status} ${plan.method} ${plan.service}${plan.path} body=${plan.body?.toString('utf8').slice(0, 200)} -> ${response.text.slice(0, 300)}`,
            );
          if (response.status === 201 && !response.replayed && plan.creates) created[plan.creates] += 1;
        } catch (error) {
          failures.push(`transport ${plan.method} ${plan.service}${plan.path}: ${String(error)}`);
        }
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    await Promise.all([pools.gateway.close(), pools.ledger.close()]);

    const after = await counts();
    const report = {
      seed: SEED,
      sent,
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      failures: failures.slice(0, 10),
    };
    expect(report.failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(Math.min(REQUESTS, 10_000) * 0.99);
    for (const table of TABLES)
      expect({ seed: SEED, table, rows: after[table] - before[table] }).toEqual({ seed: SEED, table, rows: created[table] });
    // Both processes still answer, and the money still adds up.
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${ledger.url}/healthz`)).status).toBe(200);
    const check = await httpJson(`${ledger.url}/ops/v1/journal/check`, 'GET', { authorization: `Bearer ${env.config.opsBootstrapToken}` });
    expect(check.body).toMatchObject({ ok: true });
    process.stdout.write(`fuzz: ${JSON.stringify({ seed: SEED, sent, statuses: report.statuses })}\n`);
  }, 200_000);
});
