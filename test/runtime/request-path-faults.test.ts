/**
 * Every Redis and ledger call on the partner request path made to fail or to time out in turn, against the
 * compiled gateway and ledger as their containers run them: each request gets an answer (the Redis ones a
 * success, since Redis only accelerates the partner API; the ledger ones a problem document), and neither
 * process ever ends. Redis faults are real: a Redis of the test's own whose ACL denies the service's user
 * one family of keys at a time (NOPERM on exactly that call), `CLIENT PAUSE` for timeouts, and a kill. Ledger
 * faults come from a real HTTP proxy between gateway and ledger that refuses, fails or holds one kind of call.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Scenario, startPrivateRedis, type PrivateRedis } from '@kasa/testkit';
import { ensureBuilt, killLeftovers, migrate, productionEnvironment, startCompiled, type RunningService } from './support.js';

/** The gateway's own wait for the ledger in this test (LEDGER_TIMEOUT_MS), so a held call is answered soon. */
const LEDGER_TIMEOUT_MS = 800;
const PASSWORD = randomUUID();

type LedgerFault = 'pass' | 'refuse' | 'fail' | 'hold';
/** Which ledger calls the proxy spoils: the API-key resolve, creates, or reads (lookups and lists). */
type LedgerCall = 'resolve' | 'create' | 'read';

let redis: PrivateRedis;
let prefix: string;
let proxy: { url: string; set(call: LedgerCall, fault: LedgerFault): void; close(): Promise<void> };
let ledger: RunningService;
let gateway: RunningService;
let scenario: Scenario;
let siteId: string;
let cleanup: () => Promise<void>;

function callOf(path: string, method: string): LedgerCall {
  if (path.startsWith('/internal/v1/auth/')) return 'resolve';
  return method === 'POST' ? 'create' : 'read';
}

async function startFaultProxy(target: string) {
  const faults = new Map<LedgerCall, LedgerFault>();
  const held: ServerResponse[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const fault = faults.get(callOf(req.url ?? '', req.method ?? 'GET')) ?? 'pass';
    if (fault === 'refuse') return void req.socket.destroy();
    if (fault === 'hold') return void held.push(res);
    if (fault === 'fail') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
      return;
    }
    const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(call: LedgerCall, fault: LedgerFault) {
      faults.set(call, fault);
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The key families of the partner request path (`<prefix>:<family>:…`), each denied in turn. */
const FAMILIES = ['auth', 'rl', 'rl-badkey', 'idem'];
/** Everything else the services keep (BullMQ, operator logins, the readiness probe): always allowed. */
const OTHERS = ['{bull}:*', 'ops-login-*', 'readyz*'];

/** Lets the service's Redis user touch every key of the suite's prefix except the families in `denied`. */
async function denyKeys(...denied: string[]): Promise<void> {
  const allowed = [...FAMILIES.filter((family) => !denied.includes(family)).map((family) => `${family}:*`), ...OTHERS];
  await redis.command('ACL', 'SETUSER', 'kasa', 'resetkeys', ...allowed.map((pattern) => `~${prefix}:${pattern}`));
}

async function allowAllKeys(): Promise<void> {
  await redis.command('ACL', 'SETUSER', 'kasa', 'resetkeys', `~${prefix}:*`);
}

interface Answer {
  status: number;
  error?: string;
  replayed: boolean;
  body: Record<string, unknown>;
}

async function partner(method: 'GET' | 'POST', path: string, apiKey: string, body?: unknown, idempotencyKey?: string): Promise<Answer> {
  const response = await fetch(`${gateway.url}/api/v1/external${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': idempotencyKey ?? randomUUID() }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000),
  });
  const parsed = (await response.json()) as Record<string, unknown>;
  return {
    status: response.status,
    ...(typeof parsed.error === 'string' ? { error: parsed.error } : {}),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body: parsed,
  };
}

/** A key never used before, so its first request misses the auth cache and asks the ledger. */
async function freshKey(): Promise<string> {
  return (await scenario.issueApiKey(siteId)).apiKey;
}

/**
 * A partner's round: a create, its retry with the same key, a lookup, a list and a bad key. Returns the
 * statuses as `name status` strings, so a failure shows every answer at once.
 */
async function round(apiKey: string): Promise<string[]> {
  const idempotencyKey = randomUUID();
  const request = { externalUserId: 'fault-user', amount: '150000' };
  const created = await partner('POST', '/deposits', apiKey, request, idempotencyKey);
  const retried = await partner('POST', '/deposits', apiKey, request, idempotencyKey);
  const sameRecord = created.status === 201 && retried.body.intentId === created.body.intentId && retried.replayed;
  const intentId = typeof created.body.intentId === 'string' ? created.body.intentId : randomUUID();
  const lookup = await partner('GET', `/intents/${intentId}`, apiKey);
  const list = await partner('GET', '/intents?limit=5', apiKey);
  const badKey = await partner('GET', '/intents?limit=5', `${apiKey.slice(0, -4)}zzzz`);
  return [
    `create ${created.status}${created.status === 201 ? '' : ' ' + JSON.stringify(created.body)}`,
    `retry ${retried.status}${sameRecord ? ' same' : ''}`,
    `lookup ${lookup.status}`,
    `list ${list.status}`,
    `badKey ${badKey.status}`,
  ];
}

const ALL_SERVED = ['create 201', 'retry 201 same', 'lookup 200', 'list 200', 'badKey 401'];

/** Neither process ended, and neither wrote an unexpected-failure line. */
function expectAlive(): void {
  expect(gateway.child.exitCode).toBeNull();
  expect(ledger.child.exitCode).toBeNull();
  expect(gateway.stderr()).not.toMatch(/unhandled rejection|uncaught exception/);
  expect(ledger.stderr()).not.toMatch(/unhandled rejection|uncaught exception/);
}

beforeAll(async () => {
  ensureBuilt();
  redis = await startPrivateRedis();
  const production = productionEnvironment({}, 'kasa_faults');
  prefix = production.redisPrefix;
  await redis.command('ACL', 'SETUSER', 'kasa', 'on', `>${PASSWORD}`, '+@all', `~${prefix}:*`);
  const env = {
    ...production.env,
    REDIS_URL: `redis://kasa:${PASSWORD}@127.0.0.1:${redis.port}`,
    LEDGER_TIMEOUT_MS: String(LEDGER_TIMEOUT_MS),
    // The gateway's memory of create keys on, so its Redis calls (the `idem` family) are on the request path too.
    IDEMPOTENCY_LOST_RECORD_GUARD: 'true',
  };
  await migrate(env);
  ledger = await startCompiled('ledger', env);
  proxy = await startFaultProxy(ledger.url);
  gateway = await startCompiled('gateway', { ...env, LEDGER_URL: proxy.url });
  scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: production.env.OPS_BOOTSTRAP_TOKEN as string,
    internalToken: production.env.INTERNAL_TOKEN as string,
    slugPrefix: 'f',
  });
  await scenario.createReceivingAccount();
  siteId = (await scenario.createSite({ rateLimitPerMinute: 100000 })).siteId;
  cleanup = production.cleanup;
  // Warm both processes up first: a freshly started ledger's first statements (planning, the pool's first connections)
  // can outlast this test's short LEDGER_TIMEOUT_MS on a loaded machine, which is not the fault under test.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if ((await round(await freshKey())).join() === ALL_SERVED.join()) break;
  }
}, 120_000);

afterAll(async () => {
  await gateway?.terminate();
  await ledger?.terminate();
  killLeftovers();
  await proxy?.close();
  await redis?.stop();
  await cleanup?.();
}, 60_000);

describe('a failing Redis call on the request path', () => {
  it('serves every partner request with no fault, as the baseline', async () => {
    expect(await round(await freshKey())).toEqual(ALL_SERVED);
    expectAlive();
  });

  it.each([
    ['the API-key cache', 'auth'],
    ['the per-key request counter', 'rl'],
    ['the invalid-key allowance', 'rl-badkey'],
    ['the idempotency store', 'idem'],
  ])(
    'serves every partner request when %s answers errors (NOPERM)',
    async (_name, family) => {
      await denyKeys(family);
      try {
        // A new key misses the cache and is resolved by the ledger while the denied call fails: the case that
        // used to end the gateway when the counter's rejection arrived during the ledger's lookup.
        expect(await round(await freshKey())).toEqual(ALL_SERVED);
      } finally {
        await allowAllKeys();
      }
      expectAlive();
    },
    60_000,
  );

  it('serves every partner request when every key of the request path is refused', async () => {
    await denyKeys(...FAMILIES);
    try {
      expect(await round(await freshKey())).toEqual(ALL_SERVED);
    } finally {
      await allowAllKeys();
    }
    expectAlive();
  }, 60_000);

  it.each([['WRITE'], ['ALL']])(
    'serves every partner request when Redis holds %s commands past the command timeout',
    async (mode) => {
      const apiKey = await freshKey();
      await redis.command('CLIENT', 'PAUSE', '6000', mode);
      try {
        expect(await round(apiKey)).toEqual(ALL_SERVED);
      } finally {
        await redis.command('CLIENT', 'UNPAUSE');
      }
      expectAlive();
    },
    60_000,
  );

  it('serves every partner request while Redis is stopped, and again after it is back', async () => {
    const known = await freshKey();
    expect(await round(known)).toEqual(ALL_SERVED);
    await redis.kill();
    try {
      expect(await round(known)).toEqual(ALL_SERVED);
      expect(await round(await freshKey())).toEqual(ALL_SERVED);
    } finally {
      await redis.restart();
      await redis.command('ACL', 'SETUSER', 'kasa', 'on', `>${PASSWORD}`, '+@all', `~${prefix}:*`);
    }
    const deadline = Date.now() + 20_000;
    let after: string[] = [];
    while (Date.now() < deadline) {
      after = await round(await freshKey());
      if (after.join() === ALL_SERVED.join()) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(after).toEqual(ALL_SERVED);
    expectAlive();
  }, 90_000);
});

describe('a failing ledger call on the request path', () => {
  const FAULT_STATUS: Record<Exclude<LedgerFault, 'pass'>, number> = { refuse: 503, hold: 503, fail: 500 };

  it.each([
    ['refuse', 'the connection is refused'],
    ['hold', 'no answer comes within LEDGER_TIMEOUT_MS'],
    ['fail', 'it answers 500'],
  ] as const)(
    'answers a problem document when the API-key resolve fails: %s (%s)',
    async (fault, _why) => {
      const apiKey = await freshKey();
      proxy.set('resolve', fault);
      try {
        const answer = await partner('GET', '/intents?limit=5', apiKey);
        expect([answer.status, answer.error]).toEqual([FAULT_STATUS[fault], fault === 'fail' ? 'internal_error' : 'service_unavailable']);
      } finally {
        proxy.set('resolve', 'pass');
      }
      expectAlive();
    },
    30_000,
  );

  it.each([
    ['refuse', 'create'],
    ['hold', 'create'],
    ['fail', 'create'],
    ['refuse', 'read'],
    ['hold', 'read'],
    ['fail', 'read'],
  ] as const)(
    'answers a problem document when the ledger fails: %s on %s',
    async (fault, call) => {
      const apiKey = await freshKey();
      const created = await partner('POST', '/deposits', apiKey, { externalUserId: 'fault-user', amount: '150000' });
      proxy.set(call, fault);
      try {
        const answers =
          call === 'create'
            ? [await partner('POST', '/deposits', apiKey, { externalUserId: 'fault-user', amount: '150000' })]
            : [
                await partner('GET', `/intents/${String(created.body.intentId)}`, apiKey),
                await partner('GET', '/intents?limit=5', apiKey),
                await partner('GET', '/events?limit=5', apiKey),
              ];
        for (const answer of answers) expect(answer.status).toBe(FAULT_STATUS[fault]);
      } finally {
        proxy.set(call, 'pass');
      }
      expectAlive();
    },
    30_000,
  );

  it('answers when the request counter fails while the ledger resolves a new key slowly', async () => {
    await denyKeys('rl');
    proxy.set('resolve', 'hold');
    try {
      const answer = await partner('GET', '/intents?limit=5', await freshKey());
      expect(answer.status).toBe(503);
    } finally {
      proxy.set('resolve', 'pass');
      await allowAllKeys();
    }
    expectAlive();
  }, 30_000);
});
