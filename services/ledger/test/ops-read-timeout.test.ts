/**
 * The ops lists' statement timeout (docs/operations.md, Lists): a page read past OPS_READ_TIMEOUT_MS, of every ops
 * list, of a CSV export and of the dashboard's counts, answers 503 `service_unavailable`, and PostgreSQL has cancelled
 * its statement rather than left it running. A read is made slow the way a real one is held up: another transaction
 * holds the table (LOCK TABLE), so the list's statement waits until its timeout ends it.
 */
import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness, type LedgerHarness } from './harness.js';

const TIMEOUT_MS = 400;

const setup = useHarness(() => startLedgerHarness({ OPS_READ_TIMEOUT_MS: String(TIMEOUT_MS) }));

const LIST_TOO_SLOW = { error: 'service_unavailable', status: 503, detail: 'The list took too long; narrow the filters.' };

interface Answer {
  status: number;
  type: string | null;
  body: unknown;
}

async function get(h: LedgerHarness, path: string, accept: string): Promise<Answer> {
  const res = await fetch(`${h.ledger.url}/ops/v1${path}`, {
    headers: { accept, authorization: `Bearer ${h.env.config.opsBootstrapToken}` },
  });
  const text = await res.text();
  const type = res.headers.get('content-type');
  return { status: res.status, type, body: type?.includes('json') ? JSON.parse(text) : text };
}

async function connected(h: LedgerHarness): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: h.env.config.databaseUrl });
  await client.connect();
  return client;
}

/** Backends of this database whose statement (matching `statement`, an ILIKE pattern) runs or waits right now. */
async function running(watcher: pg.Client, statement: string): Promise<Array<{ pid: number; query: string }>> {
  const { rows } = await watcher.query<{ pid: number; query: string }>(
    `SELECT pid, query FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query ILIKE $1`,
    [statement],
  );
  return rows;
}

/**
 * GETs `path` while another transaction holds `table`: the answer, and the backends seen waiting on the lock with the
 * read's statement before it came (the read itself, caught in the act) and still running after it.
 */
async function readWhileLocked(h: LedgerHarness, table: string, path: string, statement: string, accept = 'application/json') {
  const locker = await connected(h);
  const watcher = await connected(h);
  try {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    let settled = false;
    const pending = get(h, path, accept).finally(() => {
      settled = true;
    });
    const waiting = new Map<number, string>();
    while (!settled && waiting.size === 0) {
      for (const row of await running(watcher, statement)) waiting.set(row.pid, row.query);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await pending;
    // Read while the lock is still held: a statement left running would still be waiting on it.
    const after = (await running(watcher, statement)).filter((row) => waiting.has(row.pid) && waiting.get(row.pid) === row.query);
    await locker.query('ROLLBACK');
    return { answer, waiting: [...waiting.values()], stillRunning: after };
  } finally {
    await locker.end();
    await watcher.end();
  }
}

/**
 * A list's page statement as Prisma writes it, by its first two columns: the whole row, which the relay's and the
 * expiry sweep's reads of the same tables never select (pg_stat_activity cuts a statement at 1 kB, before its ORDER BY).
 */
const pageOf = (table: string, second: string) => `SELECT "public"."${table}"."id", "public"."${table}"."${second}", %`;

const LISTS = [
  { kind: 'deposit intents', path: '/intents', table: 'deposit_intents', statement: pageOf('deposit_intents', 'site_id') },
  { kind: 'withdrawals', path: '/withdrawals', table: 'withdrawals', statement: pageOf('withdrawals', 'site_id') },
  { kind: 'bank transfers', path: '/bank-transfers', table: 'bank_transfers', statement: pageOf('bank_transfers', 'bank_tx_id') },
  {
    kind: 'returns to senders',
    path: '/sender-returns',
    table: 'sender_returns',
    statement: pageOf('sender_returns', 'bank_transfer_id'),
  },
  { kind: 'webhook events', path: '/events', table: 'outbox_events', statement: pageOf('outbox_events', 'site_id') },
  { kind: 'audit entries', path: '/audit', table: 'audit_log', statement: pageOf('audit_log', 'site_id') },
];

describe('an ops list read that outlasts OPS_READ_TIMEOUT_MS', () => {
  it.each(LISTS)(
    'of $kind is cancelled in PostgreSQL and answered 503, and the next read is answered again',
    async ({ path, table, statement }) => {
      const { h } = setup;
      const read = await readWhileLocked(h, table, path, statement);
      expect(read.answer.status).toBe(503);
      expect(read.answer.body).toMatchObject(LIST_TOO_SLOW);
      expect(read.waiting.length).toBeGreaterThan(0);
      expect(read.stillRunning).toEqual([]);
      expect((await h.ops('GET', path)).status).toBe(200);
    },
  );

  it('as a CSV export answers 503 with the problem body, not a file, and the export works again after', async () => {
    const { h } = setup;
    const site = await h.createSite();
    await h.createDeposit(site, 4200);
    const read = await readWhileLocked(
      h,
      'deposit_intents',
      `/intents?siteId=${site.siteId}`,
      pageOf('deposit_intents', 'site_id'),
      'text/csv',
    );
    expect(read.answer.status).toBe(503);
    expect(read.answer.type).toMatch(/json/);
    expect(read.answer.body).toMatchObject(LIST_TOO_SLOW);
    expect(read.waiting.length).toBeGreaterThan(0);
    expect(read.stillRunning).toEqual([]);
    const again = await get(h, `/intents?siteId=${site.siteId}`, 'text/csv');
    expect(again.status).toBe(200);
    expect(String(again.body).trim().split('\r\n')).toHaveLength(2);
  });

  const DESK_READS = [
    {
      kind: "the dashboard's counts",
      path: '/dashboard',
      table: 'deposit_intents',
      statement: '%COUNT(*)%FROM "public"."deposit_intents"%',
      detail: 'The dashboard took too long to read; try again in a moment.',
    },
    {
      kind: 'delivery health',
      path: '/delivery-health',
      table: 'delivery_attempts',
      statement: '%coalesce(w.attempts, 0)::int AS attempts%',
      detail: 'Delivery health took too long to read; narrow it to a site or fewer hours.',
    },
  ];

  it.each(DESK_READS)(
    'of $kind is cancelled in PostgreSQL and answered 503, and it is answered again',
    async ({ path, table, statement, detail }) => {
      const { h } = setup;
      const read = await readWhileLocked(h, table, path, statement);
      expect(read.answer.status).toBe(503);
      expect(read.answer.body).toMatchObject({ error: 'service_unavailable', detail });
      expect(read.waiting.length).toBeGreaterThan(0);
      expect(read.stillRunning).toEqual([]);
      expect((await h.ops('GET', path)).status).toBe(200);
    },
  );
});
