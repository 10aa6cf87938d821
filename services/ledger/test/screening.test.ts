/**
 * Sanctions and asset-freeze screening wired to payouts (docs/compliance.md): list versions imported through the ops
 * API, a beneficiary screened at create, a hit holding the withdrawal from approval, sending and batching (read under
 * the lock, also against racing requests), four-eyes compliance decisions, re-screening on a new list version, the
 * journal check's `screening_hold_bypassed`, and the partner seeing none of it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rescreenOpenRecords } from '../src/screening/rescreen.use-case.js';
import { raceTheLock } from './lock-race.js';
import { eventually, startLedgerHarness, type LedgerHarness, type TestOperator, type TestSite } from './harness.js';

const sample = (name: string) => readFileSync(new URL(`../../../packages/screening/test/samples/${name}`, import.meta.url));
const UN_XML = sample('un-consolidated-2020-03-20.xml');
const NATIONAL_CSV = sample('national-list.csv');
const LIST = 'tr-masak-6415';

let h: LedgerHarness;
let site: TestSite;
let ayse: TestOperator;
let mehmet: TestOperator;
let reviewer: TestOperator;
beforeAll(async () => {
  // A slow re-screening worker: the tests that need it wait for it, the others are not raced by it unasked.
  h = await startLedgerHarness({ SCREENING_RESCREEN_INTERVAL_MS: '300' });
  site = await h.createSite();
  await h.fund(site, 5_000_000);
  ayse = await h.createOperator('ADMIN');
  mehmet = await h.createOperator('ADMIN');
  reviewer = await h.createOperator('REVIEWER');
});
afterAll(async () => {
  await h?.stop();
});

async function importList(body: Buffer | string, query: string, contentType: string, token?: string) {
  const response = await fetch(`${h.ledger.url}/ops/v1/screening/lists?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token ?? h.env.config.opsBootstrapToken}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const bigintJson = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
const db = () => h.ledger.deps.db;
const screeningsOf = (subjectId: string) => db().screening.findMany({ where: { subjectId }, orderBy: { createdAt: 'asc' } });
const hitOf = async (subjectId: string) => {
  const hits = (await screeningsOf(subjectId)).filter((row) => ['OPEN', 'CLEARED', 'CONFIRMED'].includes(row.status));
  return hits.at(-1) ?? null;
};
const decide = (hitId: string, decision: 'clear' | 'confirm', operator?: TestOperator) =>
  h.ops('POST', `/screening/hits/${hitId}/decision`, { decision, note: `${decision}: checked against the listing` }, operator?.token);
const approve = (withdrawalId: string, operator?: TestOperator) =>
  h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}, operator?.token);
const withdrawTo = (name: string, amount = 10_000) => h.createWithdrawal(site, amount, { targetHolderName: name });
const problemsOf = async (kind: string) =>
  ((await h.ops('GET', '/journal/check')).body.problems as Array<{ kind: string; detail: Record<string, string> }>).filter(
    (problem) => problem.kind === kind,
  );

describe('importing lists', () => {
  it('refuses a malformed file with a 400 naming the place, and imports nothing', async () => {
    const broken = await importList('<CONSOLIDATED_LIST><INDIVIDUALS><INDIVIDUAL>', 'source=un', 'application/xml');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('validation_failed');
    const header = NATIONAL_CSV.toString('utf8').split('\n')[0];
    const badCsv = await importList(`${header}\nX-1,person,Someone,,,,,\n`, `source=csv&list=${LIST}`, 'text/csv');
    expect(badCsv.status).toBe(400);
    expect(badCsv.body.errors[0].field).toBe('line 2');
    expect(badCsv.body.detail).toContain('nothing was imported');
    const noName = await importList(NATIONAL_CSV, 'source=csv', 'text/csv');
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual([expect.objectContaining({ field: 'list' })]);
    const longId = await importList(`${header}\n${'X'.repeat(65)},individual,Someone Long,,,,,\n`, `source=csv&list=${LIST}`, 'text/csv');
    expect(longId.status).toBe(400);
    expect(longId.body.errors[0].message).toContain('id is longer than 64');
    const wrongType = await importList(NATIONAL_CSV, `source=csv&list=${LIST}`, 'application/json');
    expect(wrongType.status).toBe(415);
    expect(await db().screeningListVersion.count()).toBe(0);
    expect(await db().auditLog.count({ where: { action: 'SCREENING_LIST.IMPORTED' } })).toBe(0);
  });

  it('refuses a reviewer (403): importing lists and reading hits are for admins', async () => {
    const refused = await importList(NATIONAL_CSV, `source=csv&list=${LIST}`, 'text/csv', reviewer.token);
    expect(refused.status).toBe(403);
    expect((await h.ops('GET', '/screening/hits', undefined, reviewer.token)).status).toBe(403);
    expect(await db().screeningListVersion.count()).toBe(0);
  });

  it('imports the UN list and a national list, each its current version; the same bytes again change nothing', async () => {
    const un = await importList(UN_XML, 'source=un', 'application/xml');
    expect(un.status).toBe(201);
    expect(un.body).toMatchObject({
      created: true,
      version: { source: 'un-sc-consolidated', format: 'un', current: true, generated: expect.any(String) },
    });
    expect(un.body.version.entries).toBeGreaterThan(900);
    const national = await importList(NATIONAL_CSV, `source=csv&list=${LIST}`, 'text/csv');
    expect(national.status).toBe(201);
    expect(national.body.version).toMatchObject({ source: LIST, format: 'csv', entries: 6, current: true });

    const again = await importList(NATIONAL_CSV, `source=csv&list=${LIST}`, 'text/csv');
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ created: false, version: national.body.version });
    // Two at once: still one version (the import's lock, then the file's hash).
    const racing = await Promise.all([
      importList(UN_XML, 'source=un', 'application/xml'),
      importList(UN_XML, 'source=un', 'application/xml'),
    ]);
    expect(racing.map((answer) => answer.status)).toEqual([200, 200]);

    const listed = await h.ops('GET', '/screening/lists');
    expect(listed.body.data.map((version: { versionId: string }) => version.versionId).sort()).toEqual(
      [un.body.version.versionId, national.body.version.versionId].sort(),
    );
    expect(await db().screeningListEntry.count({ where: { versionId: national.body.version.versionId } })).toBe(6);
    const audits = await db().auditLog.findMany({ where: { action: 'SCREENING_LIST.IMPORTED' } });
    expect(audits).toHaveLength(2);
  });
});

describe('screening payouts at create', () => {
  it('holds a beneficiary named in another order, in capitals and without Turkish letters; the partner sees nothing', async () => {
    const { withdrawalId } = await withdrawTo('OZTURKMEN SUKRU CAGLAYAN');
    const [screening] = await screeningsOf(withdrawalId);
    expect(screening).toMatchObject({
      status: 'OPEN',
      entrySource: LIST,
      entryId: 'TR-6415-0001',
      screenedName: 'OZTURKMEN SUKRU CAGLAYAN',
    });
    expect(screening?.scoreBp).toBeGreaterThanOrEqual(8200);
    expect(screening?.listVersionIds).toHaveLength(2);
    const held = await db().auditLog.findMany({ where: { action: 'SCREENING.HELD', entityId: screening?.id } });
    expect(held).toHaveLength(1);
    expect(held[0]?.siteId).toBeNull();

    const refused = await approve(withdrawalId);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('compliance_hold');
    expect((await h.ops('GET', `/withdrawals/${withdrawalId}`)).body.status).toBe('PENDING_REVIEW');

    // The partner: its normal status, no field and no event about screening.
    const partner = await h.internal('GET', `/sites/${site.siteId}/withdrawals/${withdrawalId}`);
    expect(partner.status).toBe(200);
    expect(partner.body.status).toBe('PENDING_REVIEW');
    expect(JSON.stringify(partner.body)).not.toMatch(/screen|hold|sanction|complian|hit/i);
    const list = await h.internal('GET', `/sites/${site.siteId}/withdrawals?limit=100`);
    expect(JSON.stringify(list.body)).not.toMatch(/screen|sanction|complian/i);
    const events = await db().outboxEvent.findMany({ where: { siteId: site.siteId } });
    expect(bigintJson(events)).not.toMatch(/screen|sanction|complian/i);
    expect(events.filter((event) => event.entityId === withdrawalId)).toEqual([]);
  });

  it('holds a UN-listed name given with its words in another order', async () => {
    const entry = await db().screeningListEntry.findFirstOrThrow({ where: { reference: { startsWith: 'QDi' }, kind: 'individual' } });
    const primary = (entry.names as Array<{ text: string }>)[0]?.text ?? '';
    const words = primary.split(' ');
    const reordered = [...words.slice(1), words[0]].join(' ');
    const { withdrawalId } = await withdrawTo(reordered);
    expect(await hitOf(withdrawalId)).toMatchObject({ status: 'OPEN', entrySource: 'un-sc-consolidated', entryId: entry.entryId });
  });

  it('does not hold a clean name: it is approved as ever', async () => {
    const { withdrawalId } = await withdrawTo('Ayşe Yılmaz');
    expect((await screeningsOf(withdrawalId)).map((row) => row.status)).toEqual(['CLEAN']);
    expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
  });

  it("does not screen a sandbox's withdrawals: no real money moves, and a test key must not probe the lists", async () => {
    expect((await h.ops('POST', `/sites/${site.siteId}/api-keys`, { mode: 'test' })).status).toBe(201);
    const twinId = (await h.ops('GET', `/sites/${site.siteId}`)).body.testSiteId as string;
    const { withdrawalId } = await h.createWithdrawal({ siteId: twinId, slug: 'twin' }, 10_000, {
      targetHolderName: 'Şükrü Çağlayan Öztürkmen',
    });
    expect(await screeningsOf(withdrawalId)).toEqual([]);
    await rescreenOpenRecords(h.ledger.deps);
    expect(await screeningsOf(withdrawalId)).toEqual([]);
  });

  it('keeps a held withdrawal out of a payout batch, named or not', async () => {
    const { withdrawalId } = await withdrawTo('Gülşen Ağaoğlu');
    expect((await hitOf(withdrawalId))?.status).toBe('OPEN');
    const named = await h.ops('POST', '/payout-batches', { withdrawalIds: [withdrawalId] });
    expect(named.status).toBe(409);
    const all = await h.ops('POST', '/payout-batches', {});
    if (all.status === 201) {
      const batch = await h.ops('GET', `/payout-batches/${all.body.batchId}`);
      expect(batch.body.items.map((item: { withdrawalId: string }) => item.withdrawalId)).not.toContain(withdrawalId);
    }
  });
});

describe('compliance decisions (four-eyes, admins only)', () => {
  it('needs two different admins; the same admin twice, a reviewer and the bootstrap token are refused', async () => {
    const { withdrawalId } = await withdrawTo('Şükrü Çağlayan Öztürkmen');
    const hit = await hitOf(withdrawalId);
    const hitId = hit?.id as string;

    expect((await decide(hitId, 'clear', reviewer)).status).toBe(403);
    const bootstrap = await decide(hitId, 'clear');
    expect(bootstrap.status).toBe(409);
    expect(bootstrap.body.reason).toBe('second_approver_required');

    const first = await decide(hitId, 'clear', ayse);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'OPEN', decisions: [{ operatorId: ayse.operatorId, decision: 'clear' }] });
    expect((await approve(withdrawalId)).body.reason).toBe('compliance_hold');

    const again = await decide(hitId, 'clear', ayse);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('second_approver_required');
    const refusals = await db().auditLog.findMany({ where: { action: 'FOUR_EYES.REFUSED', actorId: ayse.operatorId } });
    expect(refusals.some((entry) => String((entry.metadata as { path?: string }).path).includes(hitId))).toBe(true);

    const second = await decide(hitId, 'clear', mehmet);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'CLEARED', decidedAt: expect.any(String) });
    expect(second.body.decisions.map((given: { operatorId: string }) => given.operatorId)).toEqual([ayse.operatorId, mehmet.operatorId]);
    const audit = await db().auditLog.findMany({ where: { entityId: hitId }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual(['SCREENING.HELD', 'SCREENING.FIRST_DECISION', 'SCREENING.CLEARED']);

    // The hold lifted: the payout continues normally.
    expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
    expect((await decide(hitId, 'confirm', ayse)).body.reason).toBe('invalid_transition');
  });

  it('one admin with a second account it created cannot settle a decision alone', async () => {
    const { withdrawalId } = await withdrawTo('Sukru Caglayan Ozturkmen');
    const hitId = (await hitOf(withdrawalId))?.id as string;
    // Ayşe creates a second admin account she holds herself.
    const email = `ayse-2-${Date.now()}@kasa.test`;
    const password = `pw-${Date.now()}-second-account`;
    const created = await h.ops('POST', '/operators', { email, name: 'Ayşe (2)', role: 'ADMIN', password }, ayse.token);
    expect(created.status).toBe(201);
    const login = await fetch(`${h.ledger.url}/ops/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const secondToken = ((await login.json()) as { token: string }).token;
    const alias = { operatorId: created.body.operatorId as string, email, password, token: secondToken };

    expect((await decide(hitId, 'clear', ayse)).body.status).toBe('OPEN');
    const tied = await decide(hitId, 'clear', alias);
    expect(tied.status).toBe(409);
    expect(tied.body.reason).toBe('second_approver_required');
    expect(tied.body.detail).toContain('they created your account');
    expect((await hitOf(withdrawalId))?.status).toBe('OPEN');
  });

  it('a confirmed hit freezes the payout for good; it can still be rejected', async () => {
    const { withdrawalId } = await withdrawTo('Mehmet Yıldız');
    const hitId = (await hitOf(withdrawalId))?.id as string;
    expect((await decide(hitId, 'confirm', ayse)).body.status).toBe('OPEN');
    // A second admin disagreeing does not settle it: theirs becomes the standing first decision.
    const disagree = await decide(hitId, 'clear', mehmet);
    expect(disagree.body).toMatchObject({ status: 'OPEN', decisions: [{ operatorId: mehmet.operatorId, decision: 'clear' }] });
    expect((await decide(hitId, 'confirm', ayse)).body.status).toBe('OPEN');
    const confirmed = await decide(hitId, 'confirm', mehmet);
    expect(confirmed.body.status).toBe('CONFIRMED');

    const refused = await approve(withdrawalId);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('frozen');
    const rejected = await h.ops('POST', `/withdrawals/${withdrawalId}/reject`, { reason: 'Compliance decision' });
    expect(rejected.body.status).toBe('REJECTED');
  });
});

describe('holds under racing requests', () => {
  it('an approval racing a re-screen hold: either the approval came first or the hold stops it, never both', async () => {
    // Names not yet on any list; a new national list version names them while approvals run.
    const names = ['Tarık Bozkurtoğlu', 'Nevzat Çağırgan', 'Hülya Ertuğrul', 'Sevim Karadumanlı', 'Ufuk Özgöçmen'];
    const created = await Promise.all(names.map((name) => withdrawTo(name)));
    for (const { withdrawalId } of created) expect((await screeningsOf(withdrawalId)).map((row) => row.status)).toEqual(['CLEAN']);
    const rows = names.map((name, i) => `RACE-${i},individual,${name},,6415,2026-01-01,,`).join('\n');
    const csv = `${NATIONAL_CSV.toString('utf8').trimEnd()}\n${rows}\n`;
    const [imported, ...answers] = await Promise.all([
      importList(csv, `source=csv&list=${LIST}`, 'text/csv'),
      ...created.map(({ withdrawalId }) => approve(withdrawalId)),
      rescreenOpenRecords(h.ledger.deps),
    ]);
    expect(imported?.status).toBe(201);
    await eventually(
      async () => {
        for (const { withdrawalId } of created) if ((await hitOf(withdrawalId)) === null) return false;
        return true;
      },
      15_000,
      'every raced withdrawal re-screened and held',
    );
    for (const [i, { withdrawalId }] of created.entries()) {
      const answer = answers[i] as { status: number; body: Record<string, any> };
      const row = await db().withdrawal.findUniqueOrThrow({ where: { id: withdrawalId } });
      const hit = await hitOf(withdrawalId);
      if (answer.status === 200) expect(row.approvedAt!.getTime()).toBeLessThanOrEqual(hit!.createdAt.getTime());
      else expect(answer.body.reason).toBe('compliance_hold');
      // Held now, whatever won: it can no longer be sent.
      expect(hit?.status).toBe('OPEN');
      const sent = await h.ops('POST', `/withdrawals/${withdrawalId}/mark-sent`, {});
      expect(sent.status).toBe(409);
    }
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
  });

  it('a payout batch racing a re-screen hold never batches a withdrawal after its hold', async () => {
    const names = ['Oğuzhan Demirkapı', 'Yeliz Sarıbaşak', 'Kenan Tosunoğlu'];
    const created = await Promise.all(names.map((name) => withdrawTo(name)));
    for (const { withdrawalId } of created) expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
    const rows = names.map((name, i) => `BATCH-${i},individual,${name},,6415,2026-01-01,,`).join('\n');
    const csv = `${NATIONAL_CSV.toString('utf8').trimEnd()}\nRACE-X,individual,Nobody Listed Here,,6415,,,\n${rows}\n`;
    await Promise.all([importList(csv, `source=csv&list=${LIST}`, 'text/csv'), h.ops('POST', '/payout-batches', {})]);
    await eventually(
      async () => {
        for (const { withdrawalId } of created) if ((await hitOf(withdrawalId)) === null) return false;
        return true;
      },
      15_000,
      'every approved withdrawal re-screened',
    );
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
    // Those not batched before the hold stay out of every later batch.
    await h.ops('POST', '/payout-batches', {});
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
  });
});

describe('a hold committed while the guard waits for the lock', () => {
  /**
   * Plays the re-screen's side by hand: a transaction locks the withdrawal as the re-screening pass does, the guarded
   * request starts and waits for that lock, the hit is written and committed; the request must see it. A guard that
   * read the hold before taking the lock (or on the snapshot its statement began with) would let the payout through.
   */
  const holdWhileWaiting = <T>(withdrawalId: string, request: () => Promise<T>): Promise<T> =>
    raceTheLock(h.ledger.deps.pool, { table: 'withdrawals', id: withdrawalId }, request, (client) =>
      client.query(
        `INSERT INTO screenings (id, subject_type, subject_id, site_id, screened_name, list_version_ids, versions_key, status,
           score_bp, entry_source, entry_id, matched_name)
         SELECT gen_random_uuid(), 'withdrawal', w.id, w.site_id, w.target_holder_name, '{}', 'planted', 'OPEN', 9000, 'planted', 'P-1', 'Planted'
         FROM withdrawals w WHERE w.id = $1`,
        [withdrawalId],
      ),
    );

  it('an approval waiting for the lock sees the hit committed meanwhile and is refused', async () => {
    const { withdrawalId } = await withdrawTo('Bülent Kaşıkçıoğlu');
    expect((await screeningsOf(withdrawalId)).map((row) => row.status)).toEqual(['CLEAN']);
    const answer = await holdWhileWaiting(withdrawalId, () => approve(withdrawalId));
    expect(answer.status).toBe(409);
    expect(answer.body.reason).toBe('compliance_hold');
    expect((await db().withdrawal.findUniqueOrThrow({ where: { id: withdrawalId } })).status).toBe('PENDING_REVIEW');
  });

  it('a payout batch waiting for the lock leaves out the withdrawal held meanwhile', async () => {
    const { withdrawalId } = await withdrawTo('Cemile Dağdelenler');
    expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
    const batch = await holdWhileWaiting(withdrawalId, () => h.ops('POST', '/payout-batches', {}));
    expect([201, 409]).toContain(batch.status);
    expect(await db().payoutBatchItem.findUnique({ where: { withdrawalId } })).toBeNull();
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
  });

  it('a named batch waiting for the lock is refused whole', async () => {
    const { withdrawalId } = await withdrawTo('Necmi Akbulutoğlu');
    expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
    const batch = await holdWhileWaiting(withdrawalId, () => h.ops('POST', '/payout-batches', { withdrawalIds: [withdrawalId] }));
    expect(batch.status).toBe(409);
    expect(await db().payoutBatchItem.findUnique({ where: { withdrawalId } })).toBeNull();
  });
});

describe('re-screening on a new list version', () => {
  it('holds an open withdrawal a new version names, leaves a rejected one, and keeps decisions', async () => {
    const open = await withdrawTo('Zeynep Aydoğdu');
    const rejected = await withdrawTo('Zeynep Aydoğdu');
    expect((await h.ops('POST', `/withdrawals/${rejected.withdrawalId}/reject`, { reason: 'duplicate' })).body.status).toBe('REJECTED');
    // A withdrawal whose earlier hit was cleared: the same entry in the new version keeps the decision.
    const cleared = await withdrawTo('Sükrü Çağlayan Öztürkmen');
    const clearedHit = (await hitOf(cleared.withdrawalId))?.id as string;
    await decide(clearedHit, 'clear', ayse);
    expect((await decide(clearedHit, 'clear', mehmet)).body.status).toBe('CLEARED');

    const csv = `${NATIONAL_CSV.toString('utf8').trimEnd()}\nTR-6415-0099,individual,Zeynep Aydoğdu,,6415,2026-12-01,,\n`;
    expect((await importList(csv, `source=csv&list=${LIST}`, 'text/csv')).status).toBe(201);
    await eventually(async () => (await hitOf(open.withdrawalId))?.status === 'OPEN', 15_000, 'the open withdrawal held');
    await eventually(async () => (await screeningsOf(cleared.withdrawalId)).length >= 2, 15_000, 'the cleared one re-screened');
    expect((await screeningsOf(cleared.withdrawalId)).map((row) => row.status)).toEqual(['CLEARED', 'KNOWN']);
    expect((await approve(cleared.withdrawalId)).body.status).toBe('APPROVED');
    expect(await screeningsOf(rejected.withdrawalId)).toHaveLength(1);
    expect((await hitOf(open.withdrawalId))?.entryId).toBe('TR-6415-0099');
    // The queue shows it with its entry and list.
    const queue = await h.ops('GET', '/screening/hits');
    const row = queue.body.data.find((hit: { subjectId: string }) => hit.subjectId === open.withdrawalId);
    expect(row).toMatchObject({
      status: 'OPEN',
      subjectType: 'withdrawal',
      screenedName: 'Zeynep Aydoğdu',
      entry: { source: LIST, entryId: 'TR-6415-0099' },
    });
    const decided = await h.ops('GET', '/screening/hits?status=DECIDED');
    expect(decided.body.data.map((hit: { hitId: string }) => hit.hitId)).toContain(clearedHit);
  });
});

describe('the journal check', () => {
  it('names a withdrawal approved, sent or batched past an open or confirmed hit (planted in PostgreSQL)', async () => {
    const { withdrawalId } = await withdrawTo('İsmail Irmakoğlu');
    const hit = await hitOf(withdrawalId);
    expect(hit?.status).toBe('OPEN');
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
    await db()
      .$executeRaw`UPDATE withdrawals SET status = 'APPROVED', approved_at = now() + interval '1 second' WHERE id = ${withdrawalId}::uuid`;
    const problems = await problemsOf('screening_hold_bypassed');
    expect(problems).toEqual([
      {
        kind: 'screening_hold_bypassed',
        detail: expect.objectContaining({ withdrawalId, hitId: hit?.id, moved: 'approved', hitStatus: 'OPEN' }),
      },
    ]);
    // Put back, so the other checks of this database stay as they were.
    await db().$executeRaw`UPDATE withdrawals SET status = 'PENDING_REVIEW', approved_at = NULL WHERE id = ${withdrawalId}::uuid`;
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
  });

  it('names a batch made after the hit, but not the statement confirming a batch whose file left before it', async () => {
    const { withdrawalId } = await withdrawTo('Rüstem Kocabeyoğlu');
    expect((await approve(withdrawalId)).body.status).toBe('APPROVED');
    const batch = await h.ops('POST', '/payout-batches', { withdrawalIds: [withdrawalId] });
    expect(batch.status).toBe(201);
    // A hit written after the batch (a re-screen), then the bank's statement marks it SENT: the money had left.
    await db().$executeRaw`
      INSERT INTO screenings (id, subject_type, subject_id, site_id, screened_name, list_version_ids, versions_key, status,
        score_bp, entry_source, entry_id, matched_name, created_at)
      SELECT gen_random_uuid(), 'withdrawal', w.id, w.site_id, w.target_holder_name, '{}', 'planted', 'OPEN', 9000, 'planted', 'P-2',
        'Planted', now() + interval '1 second'
      FROM withdrawals w WHERE w.id = ${withdrawalId}::uuid`;
    await db().$executeRaw`UPDATE withdrawals SET status = 'SENT', sent_at = now() + interval '2 seconds' WHERE id = ${withdrawalId}::uuid`;
    expect((await problemsOf('screening_hold_bypassed')).filter((p) => p.detail.withdrawalId === withdrawalId)).toEqual([]);
    // The batch moved after the hit: named.
    await db().$executeRaw`UPDATE payout_batches SET created_at = now() + interval '3 seconds' WHERE id = ${batch.body.batchId}::uuid`;
    expect((await problemsOf('screening_hold_bypassed')).filter((p) => p.detail.withdrawalId === withdrawalId)).toEqual([
      { kind: 'screening_hold_bypassed', detail: expect.objectContaining({ moved: 'batched' }) },
    ]);
    await db().$executeRaw`UPDATE payout_batches SET created_at = now() - interval '1 minute' WHERE id = ${batch.body.batchId}::uuid`;
    await db().$executeRaw`UPDATE withdrawals SET status = 'APPROVED', sent_at = NULL WHERE id = ${withdrawalId}::uuid`;
    expect(await problemsOf('screening_hold_bypassed')).toEqual([]);
  });
});
