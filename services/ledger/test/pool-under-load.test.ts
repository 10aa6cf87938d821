/**
 * A transaction never waits for a second pooled connection: with every connection of the ledger's pool (20) inside a
 * transaction at once, each must still be able to finish on its own connection. Found by the failover drill: right
 * after a restart (nothing cached), or whenever the 5 s site cache expired, each operator's withdrawal approval, a
 * connector's lines and the follow-ups read their site through another connection while holding their own and their
 * row locks; with the pool full of such transactions none could go on, and they all waited for the pool's connection
 * timeout (2 s; 6 s with two hosts), then failed (503), holding up every other request meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

/** The ledger's pool size (ledger-deps.ts). */
const POOL_MAX = 20;

let h: LedgerHarness;
let site: TestSite;
beforeAll(async () => {
  // No background pass takes a connection during the test: every connection of the pool is an approval's.
  h = await startLedgerHarness({
    OUTBOX_RELAY_INTERVAL_MS: '600000',
    FOLLOW_UP_INTERVAL_MS: '600000',
    EXPIRY_SWEEP_INTERVAL_MS: '3600000',
  });
  site = await h.createSite();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/** Transactions of the ledger's database waiting for a row lock. */
async function lockWaiters(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
  );
  return rows[0]?.n ?? 0;
}

describe('a pool full of transactions', () => {
  it('approves as many withdrawals at once as the pool has connections, with the site not cached', async () => {
    await h.fund(site, 10_000_000);
    const withdrawals: string[] = [];
    for (let i = 0; i < POOL_MAX; i += 1) withdrawals.push((await h.createWithdrawal(site, 1_000 + i)).withdrawalId);
    // A new ledger process: no site read yet, as after a kill -9 and restart.
    await h.restart();

    // Every approval takes its connection and waits on its withdrawal's row, held here; then all go on at once.
    const holder = new pg.Client({ connectionString: h.env.config.databaseUrl });
    // Apart from the holder: inside a transaction pg_stat_activity is read once and kept.
    const watcher = new pg.Client({ connectionString: h.env.config.databaseUrl });
    await Promise.all([holder.connect(), watcher.connect()]);
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM withdrawals WHERE id = ANY($1::uuid[]) FOR UPDATE', [withdrawals]);
      const answers = Promise.all(withdrawals.map((id) => h.ops('POST', `/withdrawals/${id}/approve`, {})));
      const deadline = Date.now() + 10_000;
      while ((await lockWaiters(watcher)) < POOL_MAX && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await lockWaiters(watcher)).toBe(POOL_MAX);
      await holder.query('COMMIT');

      // Before, each waited out the pool's 2 s connection timeout for its site, and answered 503.
      expect((await answers).map((answer) => answer.status)).toEqual(Array(POOL_MAX).fill(200));
    } finally {
      await Promise.all([holder.end(), watcher.end()]);
    }
    expect((await h.ops('GET', `/sites/${site.siteId}/balance`)).body).toMatchObject({ reserved: String(20 * 1_000 + 190) });
  }, 60_000);
});
