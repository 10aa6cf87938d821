/**
 * The daily signed seal of the history chains (docs/compliance.md, Tamper-evident history): the history worker seals
 * each Istanbul day once it has ended and the chains hold it, and the verification catches what the chains alone
 * cannot: a chain rewritten consistently (rows, links and head) by someone who can write the database, a seal altered
 * or removed. Every attack here is done directly in PostgreSQL, as an insider with database rights would.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicKey, verify } from 'node:crypto';
import { ConfigError, loadConfig } from '@kasa/config';
import type { HistorySeal } from '@kasa/contracts';
import { HistoryWorker } from '../src/history/history.worker.js';
import { linkHash, rowHash } from '../src/history/history-hash.js';
import { dayEnd, istanbulDay, nextDay } from '../src/history/seal-history.use-case.js';
import { verifyHistory, type HistoryProblem } from '../src/history/verify-history.use-case.js';
import { checkJournal } from '../src/journal/check-journal.use-case.js';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestSite } from './harness.js';

const MINUTE = 60 * 1000;
let h: LedgerHarness;
let clock: TestClock;
let site: TestSite;
let worker: HistoryWorker;
/** The first day sealed: the Istanbul day the test's rows were written on. */
let firstDay: string;

beforeAll(async () => {
  clock = new TestClock();
  // The ledger's own worker waits ten minutes between passes: the test runs the passes itself.
  h = await startLedgerHarness({ HISTORY_CHAIN_INTERVAL_MS: '600000' }, { clock });
  worker = new HistoryWorker(h.ledger.deps, 600000);
  site = await h.createSite();
  await h.fund(site, 400000);
  firstDay = istanbulDay(new Date());
});
afterAll(async () => {
  await h?.stop();
});

const sql = <T = Record<string, string>>(text: string, ...values: unknown[]) => h.ledger.deps.db.$queryRawUnsafe<T[]>(text, ...values);
const exec = (text: string, ...values: unknown[]) => h.ledger.deps.db.$executeRawUnsafe(text, ...values);

async function seals() {
  return sql<{ day: string; payload: string; previousHash: string | null; payloadHash: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, payload, encode(previous_hash, 'hex') AS "previousHash",
       encode(payload_hash, 'hex') AS "payloadHash" FROM history_seals ORDER BY day`,
  );
}

/** Moves the test clock to a minute after `day` ends in Istanbul. */
function moveClockPast(day: string) {
  clock.advance(dayEnd(day).getTime() + MINUTE - clock.now().getTime());
}

/**
 * Passes of the worker until it is not waiting on transactions begun before its mark (the database is shared with other
 * tests' databases: a transaction of theirs still open holds every chain back a moment); the days it sealed.
 */
async function sealPass(w: HistoryWorker = worker): Promise<string[]> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const pass = await w.runOnce();
    if (!pass.sealed.waiting) return pass.sealed.days;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the seal waited ten seconds on open transactions');
}

const historyProblems = async () => (await verifyHistory(h.ledger.deps)).problems;
const named = (problems: HistoryProblem[], problem: HistoryProblem['problem']) => problems.filter((p) => p.problem === problem);

describe('sealing', () => {
  it('seals nothing before the day ends, then the day once, with every head and the balances the heads cover', async () => {
    expect(await sealPass()).toEqual([]);
    expect(await seals()).toHaveLength(0);

    moveClockPast(firstDay);
    expect(await sealPass()).toEqual([firstDay]);
    const [seal] = await seals();
    const payload = JSON.parse(seal!.payload) as {
      day: string;
      previousSealHash: string | null;
      heads: Array<{ chain: string; seq: string; linkHash: string }>;
      balances: Array<{ siteId: string; account: string; balance: string }>;
    };
    expect(payload.day).toBe(firstDay);
    expect(payload.previousSealHash).toBeNull();
    const heads = await sql<{ chain: string; seq: string; linkHash: string }>(
      `SELECT chain, seq::text AS seq, encode(link_hash, 'hex') AS "linkHash" FROM history_heads ORDER BY chain`,
    );
    expect(payload.heads).toEqual(heads);
    expect(payload.heads.map((head) => head.chain)).toEqual(expect.arrayContaining(['audit', `journal:${site.siteId}`]));
    // Everything is linked: the sealed balances are the journal's.
    const journal = await sql<{ siteId: string; account: string; balance: string }>(
      `SELECT site_id::text AS "siteId", account, sum(amount)::text AS balance FROM journal_entries GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(payload.balances).toEqual(journal);
    expect(payload.balances.some((b) => b.siteId === site.siteId && BigInt(b.balance) !== 0n)).toBe(true);

    // Sealed once: another pass the same day adds nothing.
    expect(await sealPass()).toEqual([]);
    expect(await historyProblems()).toEqual([]);
  });

  it('seals days with no rows too, and the days missed while no ledger ran, each chained to the one before', async () => {
    const second = nextDay(firstDay);
    const third = nextDay(second);
    moveClockPast(third);
    expect(await sealPass()).toEqual([second, third]);
    const all = await seals();
    expect(all.map((s) => s.day)).toEqual([firstDay, second, third]);
    expect(all[1]!.previousHash).toBe(all[0]!.payloadHash);
    expect(all[2]!.previousHash).toBe(all[1]!.payloadHash);
    const report = await verifyHistory(h.ledger.deps);
    expect(report).toMatchObject({ ok: true, seals: 3 });
  });

  it('waits while a transaction begun before the day ended is still open, and seals once it has committed and is linked', async () => {
    const client = await h.ledger.deps.pool.connect();
    const day = nextDay(nextDay(nextDay(firstDay)));
    try {
      await client.query('BEGIN');
      const [late] = (
        await client.query<{ id: string }>(
          `INSERT INTO audit_log (id, actor_type, actor_id, action, entity_type, entity_id)
           VALUES (gen_random_uuid(), 'SYSTEM', 'seal-test', 'test.open_at_midnight', 'test', 'open') RETURNING id::text AS id`,
        )
      ).rows;
      moveClockPast(day);
      const waiting = await worker.runOnce();
      expect(waiting.sealed).toEqual({ days: [], waiting: true });
      await client.query('COMMIT');
      expect(await sealPass()).toEqual([day]);
      // The row of the transaction open at midnight is inside what the day's seal covers.
      const [link] = await sql<{ seq: string }>(`SELECT seq::text AS seq FROM history_links WHERE row_id = $1::uuid`, late!.id);
      const sealed = JSON.parse((await seals()).at(-1)!.payload) as { heads: Array<{ chain: string; seq: string }> };
      expect(BigInt(sealed.heads.find((head) => head.chain === 'audit')!.seq)).toBeGreaterThanOrEqual(BigInt(link!.seq));
    } finally {
      client.release();
    }
  });

  it('seals a day once when ledgers race to seal it', async () => {
    const day = istanbulDay(clock.now());
    moveClockPast(day);
    const workers = Array.from({ length: 4 }, () => new HistoryWorker(h.ledger.deps, 600000));
    const passes = await Promise.all(workers.map((w) => sealPass(w)));
    // Whoever held the chains sealed it; the others found it sealed or the chains taken.
    expect(passes.flat()).toEqual([day]);
    expect((await seals()).filter((s) => s.day === day)).toHaveLength(1);
    expect(await historyProblems()).toEqual([]);
  });
});

describe('GET /ops/v1/seals', () => {
  it('lists the seals newest first, in pages, each with its public key and verifying offline with it', async () => {
    const first = await h.ops('GET', '/seals?limit=2');
    expect(first.status).toBe(200);
    const body = first.body as { data: HistorySeal[]; nextCursor: string | null };
    expect(body.data).toHaveLength(2);
    expect(body.data[0]!.day > body.data[1]!.day).toBe(true);
    expect(body.nextCursor).not.toBeNull();
    const rest = await h.ops('GET', `/seals?limit=100&cursor=${encodeURIComponent(body.nextCursor!)}`);
    const all = [...body.data, ...(rest.body as { data: HistorySeal[] }).data];
    expect(all.map((seal) => seal.day).sort()).toEqual((await seals()).map((seal) => seal.day));
    for (const seal of all) {
      expect(seal).toMatchObject({ verifies: true, problems: [], keyId: h.ledger.deps.sealKeys.signing.keyId });
      // What an auditor does with the public key alone.
      const key = createPublicKey({
        key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(seal.publicKey!, 'base64')]),
        format: 'der',
        type: 'spki',
      });
      expect(verify(null, Buffer.from(seal.payload, 'utf8'), key, Buffer.from(seal.signature, 'base64'))).toBe(true);
    }
    expect((await h.ops('GET', '/seals?limit=0')).status).toBe(400);
  });
});

describe('what the seals catch', () => {
  it('refuses to change or remove a seal (append-only)', async () => {
    await expect(exec(`UPDATE history_seals SET signature = 'x' WHERE day = $1::date`, firstDay)).rejects.toThrow(/append-only/);
    await expect(exec(`DELETE FROM history_seals WHERE day = $1::date`, firstDay)).rejects.toThrow(/append-only/);
  });

  it('names seal_mismatch, with the rewritten row’s chain and place, for a chain rewritten consistently after sealing', async () => {
    // A new day's money, sealed; then an insider edits one of its journal entries and recomputes its links and head.
    await h.fund(site, 150000);
    const day = istanbulDay(clock.now());
    moveClockPast(day);
    expect(await sealPass()).toEqual([day]);
    const chain = `journal:${site.siteId}`;
    const [target] = await sql<{ seq: string; rowId: string }>(
      `SELECT l.seq::text AS seq, l.row_id::text AS "rowId" FROM history_links l JOIN journal_entries j ON j.id = l.row_id
       WHERE l.chain = $1 AND j.amount > 0 ORDER BY l.seq DESC LIMIT 1`,
      chain,
    );
    await exec(`UPDATE journal_entries SET amount = amount + 100000 WHERE id = $1::uuid`, target!.rowId);
    const seq = BigInt(target!.seq);
    const history = h.ledger.deps.history;
    const links = await history.linksAfter(h.ledger.deps.db, 'journal', { chain, seq: (seq - 1n).toString() }, 10_000);
    const [before] = await sql<{ linkHash: string }>(
      `SELECT encode(link_hash, 'hex') AS "linkHash" FROM history_links WHERE chain = $1 AND seq = $2`,
      chain,
      seq - 1n,
    );
    let previous: Buffer | null = before ? Buffer.from(before.linkHash, 'hex') : null;
    let last = seq;
    for (const link of links.filter((l) => l.chain === chain)) {
      const row = rowHash(link.row!);
      const next = linkHash(chain, BigInt(link.seq), previous, row);
      await exec(
        `UPDATE history_links SET row_hash = decode($3, 'hex'), link_hash = decode($4, 'hex') WHERE chain = $1 AND seq = $2`,
        chain,
        BigInt(link.seq),
        row.toString('hex'),
        next.toString('hex'),
      );
      previous = next;
      last = BigInt(link.seq);
    }
    await exec(`UPDATE history_heads SET seq = $2, link_hash = decode($3, 'hex') WHERE chain = $1`, chain, last, previous!.toString('hex'));

    const problems = await historyProblems();
    // The chains alone see nothing: every link follows from its row and the one before.
    expect(problems.filter((p) => !p.problem.startsWith('seal_'))).toEqual([]);
    const mismatches = named(problems, 'seal_mismatch');
    expect(mismatches).toHaveLength(1);
    const [mismatch] = mismatches;
    expect(mismatch).toMatchObject({ chain, day });
    expect(BigInt(mismatch!.fromSeq!)).toBeLessThanOrEqual(seq);
    expect(BigInt(mismatch!.seq!)).toBeGreaterThanOrEqual(seq);
    // As the journal check reports it.
    const report = await checkJournal(h.ledger.deps);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        { kind: 'history_altered', detail: expect.objectContaining({ case: 'seal_mismatch', chain, day, seq: mismatch!.seq }) },
      ]),
    );
  });

  it('names seal_signature_invalid for a seal whose payload or signature was changed', async () => {
    const [first, second] = await seals();
    await exec(`ALTER TABLE history_seals DISABLE TRIGGER history_seals_append_only`);
    try {
      // A balance raised in the signed text, its hash recomputed; and another seal's signature swapped for a third's.
      const forged = first!.payload.replace(/"balance":"(-?\d+)"/, (_m, n: string) => `"balance":"${BigInt(n) + 1n}"`);
      expect(forged).not.toBe(first!.payload);
      await exec(
        `UPDATE history_seals SET payload = $2, payload_hash = sha256(convert_to($2, 'UTF8')) WHERE day = $1::date`,
        first!.day,
        forged,
      );
      await exec(
        `UPDATE history_seals SET signature = (SELECT signature FROM history_seals WHERE day = $2::date) WHERE day = $1::date`,
        second!.day,
        nextDay(second!.day),
      );
    } finally {
      await exec(`ALTER TABLE history_seals ENABLE TRIGGER history_seals_append_only`);
    }
    const invalid = named(await historyProblems(), 'seal_signature_invalid');
    expect(invalid.map((p) => p.day).sort()).toEqual([first!.day, second!.day]);
    for (const p of invalid) expect(p.reason).toMatch(/signature does not verify/);
  });

  it('names seal_missing for a day whose seal was deleted while later days are sealed', async () => {
    const all = await seals();
    const gone = all[2]!.day;
    await exec(`ALTER TABLE history_seals DISABLE TRIGGER history_seals_append_only`);
    try {
      await exec(`DELETE FROM history_seals WHERE day = $1::date`, gone);
    } finally {
      await exec(`ALTER TABLE history_seals ENABLE TRIGGER history_seals_append_only`);
    }
    const missing = named(await historyProblems(), 'seal_missing');
    // The list says which seals no longer verify, and why.
    const listed = (await h.ops('GET', '/seals?limit=100')).body as { data: HistorySeal[] };
    const byDay = new Map(listed.data.map((seal) => [seal.day, seal]));
    expect(byDay.get(all[0]!.day)).toMatchObject({ verifies: false, problems: ['seal_signature_invalid'] });
    expect(byDay.get(all[3]!.day)).toMatchObject({ verifies: false, problems: ['seal_missing'] });
    expect(listed.data.some((seal) => seal.problems.includes('seal_mismatch'))).toBe(true);
    // (The seal forged above no longer heads the seal after it either: that one is named too.)
    expect(missing).toEqual(expect.arrayContaining([expect.objectContaining({ day: gone, source: 'seal' })]));
    expect(missing.filter((p) => p.day !== all[1]!.day)).toEqual([expect.objectContaining({ day: gone, source: 'seal' })]);
  });
});

describe('HISTORY_SEAL_KEY', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://kasa:own-database-password@db.internal:5432/kasa',
    REDIS_URL: 'redis://redis.internal:6379',
    INTERNAL_TOKEN: 'own-internal-token-0123456789',
    OPS_BOOTSTRAP_TOKEN: 'own-ops-bootstrap-token-0123456789',
    CURSOR_SIGNING_KEY: 'own-cursor-signing-key-0123456789',
    SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    STATEMENT_SIGNING_KEY: Buffer.alloc(32, 10).toString('base64'),
  };

  it('is required in production: a process without it refuses to start, naming the variable', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/^HISTORY_SEAL_KEY: is required$/);
  });

  it('refuses the published development key in production, and a key that is not ed25519', () => {
    expect(() => loadConfig({ ...production, HISTORY_SEAL_KEY: 'a2FzYS1kZXYtc2VhbC1rZXktY2hhbmdlLW1lLTMyYiE=' })).toThrow(
      /^HISTORY_SEAL_KEY: is a published development value/,
    );
    expect(() => loadConfig({ ...production, HISTORY_SEAL_KEY: 'c2hvcnQ=' })).toThrow(/^HISTORY_SEAL_KEY: must be an ed25519/);
  });

  it('takes a 32-byte seed or a PKCS#8 PEM key, and uses the development key only outside production', () => {
    const own = loadConfig({ ...production, HISTORY_SEAL_KEY: Buffer.alloc(32, 5).toString('base64') });
    expect(own.historySealKey.development).toBe(false);
    const pem = own.historySealKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(loadConfig({ ...production, HISTORY_SEAL_KEY: pem }).historySealKey.privateKey.asymmetricKeyType).toBe('ed25519');
    expect(loadConfig({ NODE_ENV: 'development' }).historySealKey.development).toBe(true);
  });
});
