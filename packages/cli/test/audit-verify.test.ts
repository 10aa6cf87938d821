/**
 * `kasa audit verify`: the history chains and their signed daily seals checked through the ops API (docs/cli.md). Clean,
 * it says so and exits 0; after an insider rewrote a sealed chain consistently in PostgreSQL, it names the chain and
 * the places of the rewrite and exits 1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { linkHash, rowHash, startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, Scenario, type TestEnvironment } from '@kasa/testkit';
import { captureKasa } from './capture-kasa.js';

let env: TestEnvironment;
let ledger: LedgerService;
let now = Date.now();
const clock = { now: () => new Date(now) };
beforeAll(async () => {
  env = await createTestEnvironment({ HISTORY_CHAIN_INTERVAL_MS: '100' });
  ledger = await startLedger(env.config, 0, { clock });
  const scenario = new Scenario({
    ledgerUrl: () => ledger.url,
    opsToken: env.config.opsBootstrapToken,
    internalToken: env.config.internalToken,
  });
  await scenario.createReceivingAccount();
  const site = await scenario.createSite();
  await scenario.fund(site.siteId, 250000);
});
afterAll(async () => {
  await ledger?.stop();
  await env?.cleanup();
});

const kasa = (args: string[]) => captureKasa(args, { KASA_URL: ledger.url, KASA_TOKEN: env.config.opsBootstrapToken });

const sql = <T = Record<string, string>>(text: string, ...values: unknown[]) => ledger.deps.db.$queryRawUnsafe<T[]>(text, ...values);

async function waitFor(probe: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i += 1) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('kasa audit verify', () => {
  it('exits 0 on a clean database once the day is sealed', async () => {
    // Two days on: the ledger's own history worker seals the day the rows were written on.
    now += 2 * 24 * 60 * 60 * 1000;
    await waitFor(async () => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM history_seals`))[0]!.n >= 2, 'the seals');
    const clean = await kasa(['audit', 'verify']);
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(clean.stdout).toMatch(/^History OK/);
  });

  it('exits 1 naming the chain and the places of a sealed chain rewritten consistently, and the edited row', async () => {
    const [head] = await sql<{ chain: string; seq: string; rowId: string }>(
      `SELECT l.chain, l.seq::text AS seq, l.row_id::text AS "rowId" FROM history_links l
       WHERE l.chain LIKE 'journal:%' ORDER BY l.seq DESC LIMIT 1`,
    );
    // The insider edits the chain's last entry and gives its link and the head the hashes that follow (history-hash.ts).
    await ledger.deps.db.$executeRawUnsafe(`UPDATE journal_entries SET entity_type = 'edited' WHERE id = $1::uuid`, head!.rowId);
    const [link] = await ledger.deps.history.linksAfter(
      ledger.deps.db,
      'journal',
      { chain: head!.chain, seq: (BigInt(head!.seq) - 1n).toString() },
      1,
    );
    const [before] = await sql<{ h: string }>(
      `SELECT encode(link_hash, 'hex') AS h FROM history_links WHERE chain = $1 AND seq = $2`,
      head!.chain,
      BigInt(head!.seq) - 1n,
    );
    const row = rowHash(link!.row!);
    const next = linkHash(head!.chain, BigInt(head!.seq), before ? Buffer.from(before.h, 'hex') : null, row).toString('hex');
    await ledger.deps.db.$executeRawUnsafe(
      `UPDATE history_links SET row_hash = decode($3, 'hex'), link_hash = decode($4, 'hex') WHERE chain = $1 AND seq = $2`,
      head!.chain,
      BigInt(head!.seq),
      row.toString('hex'),
      next,
    );
    await ledger.deps.db.$executeRawUnsafe(`UPDATE history_heads SET link_hash = decode($2, 'hex') WHERE chain = $1`, head!.chain, next);

    const broken = await kasa(['audit', 'verify']);
    expect(broken.code).toBe(1);
    // Only the seal sees it; the line names the sealed day, the chain and the range the edited row is in.
    expect(broken.stdout).not.toMatch(/row_changed|link_changed|head_mismatch/);
    const line = broken.stdout.split('\n').find((l) => l.startsWith('seal_mismatch:'));
    expect(line).toBeDefined();
    const match = new RegExp(`${head!.chain} seq (\\d+)\\.\\.(\\d+)`).exec(line!);
    expect(match).not.toBeNull();
    expect(BigInt(match![1]!)).toBeLessThanOrEqual(BigInt(head!.seq));
    expect(BigInt(match![2]!)).toBeGreaterThanOrEqual(BigInt(head!.seq));

    const json = await kasa(['--json', 'audit', 'verify']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      problems: [{ kind: 'history_altered', detail: expect.objectContaining({ case: 'seal_mismatch', chain: head!.chain }) }],
    });
  });
});
