/**
 * The ledger behind a real PgBouncer in transaction mode (DATABASE_POOL_MODE=transaction), with fewer server
 * connections than the ledger has clients, so consecutive statements of one client run on different server
 * connections: partner creates, lookups and lists at concurrency 20 answer without a 5xx, reviews commit,
 * and migrations apply through the pooler. With named prepared statements (session mode) the same traffic
 * fails with `prepared statement "..." does not exist` / `already exists`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ensureDatabase, dropDatabase, migrate } from '@kasa/db';
import { httpJson, Scenario, startPgBouncer, TEST_POSTGRES_BASE, type HttpResult, type PgBouncer } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from '../../services/gateway/test/harness.js';

const CONCURRENCY = 20;
const MAX_REQUESTS = 600;
const MAX_MS = 30_000;

const database = `kasa_t_bouncer_${randomBytes(6).toString('hex')}`;
let bouncer: PgBouncer;
let h: Harness;
let site: TestSite;
let scenario: Scenario;

beforeAll(async () => {
  bouncer = await startPgBouncer({ upstreamPort: 5432, poolSize: 5 });
  // Created on PostgreSQL itself (a deployment creates its database once, not through the pooler); the
  // harness migrates it through PgBouncer.
  await ensureDatabase(`${TEST_POSTGRES_BASE}/${database}`);
  h = await startHarness({ DATABASE_URL: `${bouncer.baseUrl}/${database}`, DATABASE_POOL_MODE: 'transaction' });
  site = await h.createSite({ rateLimitPerMinute: 100_000 });
  scenario = new Scenario({ ledgerUrl: h.ledger.url, opsToken: h.env.config.opsBootstrapToken, internalToken: h.env.config.internalToken });
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await bouncer?.stop();
  await dropDatabase(`${TEST_POSTGRES_BASE}/${database}`);
}, 60_000);

function partner(method: string, path: string, body?: unknown): Promise<HttpResult> {
  const headers: Record<string, string> = { authorization: `Bearer ${site.apiKey}` };
  if (method === 'POST') headers['idempotency-key'] = randomUUID();
  return httpJson(`${h.gateway.url}/api/v1/external${path}`, method, headers, body);
}

describe('PgBouncer in transaction mode', () => {
  it('really shares server connections between clients (the rig would prove nothing otherwise)', async () => {
    const clients = Array.from(
      { length: bouncer.poolSize * 2 },
      () => new pg.Client({ connectionString: `${bouncer.baseUrl}/${database}` }),
    );
    try {
      await Promise.all(clients.map((client) => client.connect()));
      const pids = new Set<number>();
      // Ten clients connected at once, each answered by a server process: in session mode, ten processes.
      for (const client of clients) pids.add((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
      expect(pids.size).toBeLessThanOrEqual(bouncer.poolSize);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  });

  it(`answers partner creates, lookups and lists at concurrency ${CONCURRENCY} with no 5xx`, async () => {
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    const created: string[] = [];
    let sent = 0;
    const started = Date.now();
    const count = (kind: string, answer: HttpResult, expected: number) => {
      const key = `${kind} ${answer.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (answer.status !== expected && failures.length < 5) failures.push(`${key}: ${JSON.stringify(answer.body)}`);
    };
    const lane = async (index: number) => {
      for (let i = 0; sent < MAX_REQUESTS && Date.now() - started < MAX_MS; i += 1) {
        sent += 1;
        const step = (index + i) % 5;
        if (step === 4) {
          count('list', await partner('GET', '/intents?limit=20'), 200);
        } else if (step % 2 === 0 || created.length === 0) {
          const answer = await partner('POST', '/deposits', { externalUserId: `bouncer-${index}`, amount: '150000' });
          count('create', answer, 201);
          if (answer.status === 201) created.push(answer.body.intentId as string);
        } else {
          const id = created[Math.floor(Math.random() * created.length)]!;
          count('lookup', await partner('GET', `/intents/${id}`), 200);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => lane(index)));
    const elapsedMs = Date.now() - started;
    // Printed for the record: request counts by kind and status, and the run's length.
    console.log(`pgbouncer traffic: ${sent} requests in ${elapsedMs} ms`, Object.fromEntries(statuses));
    expect(failures).toEqual([]);
    expect([...statuses.keys()].filter((key) => !/ (200|201)$/.test(key))).toEqual([]);
    expect(statuses.get('create 201') ?? 0).toBeGreaterThan(0);
    expect(statuses.get('lookup 200') ?? 0).toBeGreaterThan(0);
    expect(await h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } })).toBe(created.length);
  }, 60_000);

  it('commits reviews through the pooler: a bank transfer recorded and the intent approved, five at once', async () => {
    const intents = await Promise.all(Array.from({ length: 5 }, () => scenario.createDeposit(site.siteId, '150000')));
    const transfers = await Promise.all(intents.map((intent) => scenario.transfer(intent.referenceNo, '150000')));
    expect(transfers.map((transfer) => transfer.status)).toEqual([201, 201, 201, 201, 201]);
    await Promise.all(intents.map((intent) => scenario.approveDeposit(intent.intentId)));
    for (const intent of intents) {
      const lookup = await partner('GET', `/intents/${intent.intentId}`);
      expect(lookup.status).toBe(200);
      expect(lookup.body.status).toBe('APPROVED');
    }
    const journal = await httpJson(`${h.ledger.url}/ops/v1/journal/check`, 'GET', {
      authorization: `Bearer ${h.env.config.opsBootstrapToken}`,
    });
    expect(journal.status).toBe(200);
    expect(journal.body).toMatchObject({ ok: true, problems: [] });
  }, 60_000);

  it('applies migrations through the pooler, each once when several run at once, and leaves no lock behind', async () => {
    const fresh = `${database}_m`;
    await ensureDatabase(`${TEST_POSTGRES_BASE}/${fresh}`);
    try {
      const url = `${bouncer.baseUrl}/${fresh}`;
      const runs = await Promise.all([migrate(url), migrate(url), migrate(url)]);
      const applied = runs.flatMap((run) => run.applied);
      expect(applied.length).toBeGreaterThan(0);
      expect(new Set(applied).size).toBe(applied.length);
      // A session lock taken through the pooler would stay on a server connection and stop this run.
      expect((await migrate(url)).applied).toEqual([]);
    } finally {
      await dropDatabase(`${TEST_POSTGRES_BASE}/${fresh}`);
    }
  }, 60_000);
});
