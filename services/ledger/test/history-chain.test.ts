/**
 * Records nobody can quietly change (docs/compliance.md, Tamper-evident history): the history worker links every audit
 * and journal entry into its hash chain, and the journal check names each row edited, deleted, swapped or written behind
 * the chain, and each link moved or removed, all done here directly in PostgreSQL as an insider would.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { checkJournal } from '../src/journal/check-journal.use-case.js';
import { chainHistory } from '../src/history/chain-history.use-case.js';
import { verifyHistory, type HistoryProblem } from '../src/history/verify-history.use-case.js';
import { eventually, startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
let site: TestSite;
beforeAll(async () => {
  h = await startLedgerHarness({ HISTORY_CHAIN_INTERVAL_MS: '200' });
  site = await h.createSite();
  await h.fund(site, 500000);
  const withdrawal = await h.createWithdrawal(site, 120000);
  expect((await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
  const other = await h.createSite();
  await h.fund(other, 90000);
});
afterAll(async () => {
  await h?.stop();
});

const sql = <T = Record<string, string>>(text: string, ...values: unknown[]) => h.ledger.deps.db.$queryRawUnsafe<T[]>(text, ...values);

async function counts() {
  const [row] = await sql<{ audit: string; journal: string; links: string }>(
    `SELECT (SELECT count(*) FROM audit_log)::text AS audit, (SELECT count(*) FROM journal_entries)::text AS journal,
       (SELECT count(*) FROM history_links)::text AS links`,
  );
  return { audit: Number(row?.audit), journal: Number(row?.journal), links: Number(row?.links) };
}

/** Waits until the worker has linked every row there is, then verifies. */
async function linkedAndVerified() {
  await eventually(
    async () => {
      const now = await counts();
      return now.links === now.audit + now.journal;
    },
    20_000,
    'every audit and journal entry linked',
  );
  return verifyHistory(h.ledger.deps);
}

const found = (problems: HistoryProblem[], problem: HistoryProblem['problem'], rowId?: string) =>
  problems.some((p) => p.problem === problem && (rowId === undefined || p.rowId === rowId));

describe('history chains', () => {
  it('links every audit and journal entry, one audit chain and one journal chain per site, and verifies clean', async () => {
    const report = await linkedAndVerified();
    const now = await counts();
    expect(now.audit).toBeGreaterThan(3);
    expect(now.journal).toBeGreaterThan(4);
    expect(report).toMatchObject({ ok: true, problemCount: 0, links: now.audit + now.journal });
    const chains = await sql<{ chain: string }>(`SELECT chain FROM history_heads ORDER BY chain`);
    // Two sites with money: a journal chain each.
    expect(chains.filter((c) => c.chain.startsWith('journal:'))).toHaveLength(2);
    expect(chains.map((c) => c.chain)).toContain(`journal:${site.siteId}`);
    expect(chains.filter((c) => c.chain === 'audit')).toHaveLength(1);
    expect((await checkJournal(h.ledger.deps)).ok).toBe(true);
  });

  it('links the rows of a transaction that committed after later ones, in its place, and none twice', async () => {
    await linkedAndVerified();
    const client = await h.ledger.deps.pool.connect();
    try {
      // An audit entry whose transaction began writing before the requests below and commits after them.
      await client.query('BEGIN');
      const [late] = (
        await client.query<{ id: string }>(
          `INSERT INTO audit_log (id, actor_type, actor_id, action, entity_type, entity_id)
           VALUES (gen_random_uuid(), 'SYSTEM', 'history-test', 'test.slow_transaction', 'test', 'slow') RETURNING id::text AS id`,
        )
      ).rows;
      const deposit = await h.createDeposit(site, 70000);
      await h.transfer(deposit.referenceNo, 70000);
      expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {})).status).toBe(200);
      // Their rows wait behind the open transaction: none of them is linked while it runs.
      await new Promise((resolve) => setTimeout(resolve, 800));
      const waiting = await sql<{ n: string }>(
        `SELECT count(*)::text AS n FROM journal_entries j WHERE j.entity_id = $1::uuid
           AND EXISTS (SELECT 1 FROM history_links l WHERE l.source = 'journal' AND l.row_id = j.id)`,
        deposit.intentId,
      );
      expect(waiting[0]?.n).toBe('0');
      await client.query('COMMIT');
      const report = await linkedAndVerified();
      expect(report.ok).toBe(true);
      const [link] = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM history_links WHERE row_id = $1::uuid`, late?.id);
      expect(link?.n).toBe('1');
    } finally {
      client.release();
    }
  });

  it('runs one pass at a time: passes racing each other (and the worker) link each row once', async () => {
    await linkedAndVerified();
    const deposit = await h.createDeposit(site, 30000);
    await h.transfer(deposit.referenceNo, 30000);
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {})).status).toBe(200);
    const passes = await Promise.all(Array.from({ length: 6 }, () => chainHistory(h.ledger.deps)));
    // Every pass ended cleanly: those that found the chains taken did nothing rather than write a second link.
    expect(passes.filter((pass) => !pass.ran).every((pass) => pass.audit + pass.journal === 0)).toBe(true);
    const report = await linkedAndVerified();
    expect(report.ok).toBe(true);
    const [twice] = await sql<{ n: string }>(
      `SELECT count(*)::text AS n FROM (SELECT row_id FROM history_links GROUP BY source, row_id HAVING count(*) > 1) d`,
    );
    expect(twice?.n).toBe('0');
  });

  it('names a row edited, deleted, swapped or written behind the chain, and a link moved or removed', async () => {
    await linkedAndVerified();
    const journal = await sql<{ id: string; siteId: string }>(
      `SELECT id::text AS id, site_id::text AS "siteId" FROM journal_entries WHERE site_id = $1::uuid ORDER BY tx_id, id`,
      site.siteId,
    );
    const audit = await sql<{ id: string }>(`SELECT id::text AS id FROM audit_log ORDER BY tx_id, id`);
    const [edited, swappedA, swappedB, deleted] = audit;
    const journalEdited = journal[0];
    expect(edited && swappedA && swappedB && deleted && journalEdited).toBeTruthy();

    // A journal entry back-dated: every sum still holds, so only the chain can tell.
    await sql(`UPDATE journal_entries SET created_at = created_at - interval '1 day' WHERE id = $1::uuid`, journalEdited?.id);
    // An audit entry's actor changed.
    await sql(`UPDATE audit_log SET actor_id = 'someone-else' WHERE id = $1::uuid`, edited?.id);
    // Two audit entries' actions swapped (the rows' order of events rewritten).
    await sql(
      `UPDATE audit_log a SET action = b.action FROM audit_log b
        WHERE (a.id, b.id) IN (($1::uuid, $2::uuid), ($2::uuid, $1::uuid))`,
      swappedA?.id,
      swappedB?.id,
    );
    // An audit entry removed.
    await sql(`DELETE FROM audit_log WHERE id = $1::uuid`, deleted?.id);
    // An audit entry slipped in behind the chain, with an old transaction id.
    const [planted] = await sql<{ id: string }>(
      `INSERT INTO audit_log (id, actor_type, actor_id, action, entity_type, entity_id, tx_id)
       VALUES (gen_random_uuid(), 'SYSTEM', 'insider', 'deposit.approve', 'deposit_intent', gen_random_uuid()::text, 1)
       RETURNING id::text AS id`,
    );

    const report = await verifyHistory(h.ledger.deps);
    expect(report.ok).toBe(false);
    expect(found(report.problems, 'row_changed', journalEdited?.id)).toBe(true);
    expect(found(report.problems, 'row_changed', edited?.id)).toBe(true);
    expect(found(report.problems, 'row_changed', swappedA?.id)).toBe(true);
    expect(found(report.problems, 'row_changed', swappedB?.id)).toBe(true);
    expect(found(report.problems, 'row_deleted', deleted?.id)).toBe(true);
    expect(found(report.problems, 'row_unlinked', planted?.id)).toBe(true);
    // The journal check reports each as history_altered, naming the row.
    const check = await checkJournal(h.ledger.deps);
    expect(check.ok).toBe(false);
    expect(check.problems).toContainEqual({
      kind: 'history_altered',
      detail: expect.objectContaining({
        case: 'row_changed',
        source: 'journal',
        chain: `journal:${site.siteId}`,
        rowId: journalEdited?.id,
      }),
    });
    expect(check.problems).toContainEqual({
      kind: 'history_altered',
      detail: expect.objectContaining({ case: 'row_deleted', source: 'audit', rowId: deleted?.id }),
    });

    // Two links of the journal chain moved (their places swapped), and the chain's last link removed.
    const chain = `journal:${site.siteId}`;
    await sql(`UPDATE history_links SET seq = -1 WHERE chain = $1 AND seq = 2`, chain);
    await sql(`UPDATE history_links SET seq = 2 WHERE chain = $1 AND seq = 3`, chain);
    await sql(`UPDATE history_links SET seq = 3 WHERE chain = $1 AND seq = -1`, chain);
    const [lastLink] = await sql<{ seq: string }>(`SELECT max(seq)::text AS seq FROM history_links WHERE chain = $1`, chain);
    await sql(`DELETE FROM history_links WHERE chain = $1 AND seq = $2::bigint`, chain, lastLink?.seq);
    const moved = await verifyHistory(h.ledger.deps);
    expect(moved.problems).toContainEqual(expect.objectContaining({ problem: 'link_changed', chain, seq: '2' }));
    expect(moved.problems).toContainEqual(expect.objectContaining({ problem: 'head_mismatch', chain }));
  });
});
