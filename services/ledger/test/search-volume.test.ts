/**
 * The operators' search at volume (docs/operations.md, Search): over 20,000 seeded deposits, withdrawals, bank
 * transfers and events (vacuumed and analyzed, so the planner sees realistic statistics), every field still finds its record,
 * and the plan of each statement search sends reads an index rather than the table; `%`, `_` and `\` match only
 * themselves; a search that outlasts OPS_READ_TIMEOUT_MS is cancelled and answered 503.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { useHarness } from '@kasa/testkit/jest';
import { searchStatements } from '../src/search/search.repository.js';
import { searchTermsOf } from '../src/search/search-terms.js';
import type { SiteScope } from '../src/shared/site-scope.js';
import { startLedgerHarness, type LedgerHarness } from './harness.js';

const ROWS = 20_000;
/** Seeded deposit g's reference, as the seed makes it. */
const referenceOf = (g: number) => createHash('md5').update(`d${g}`).digest('hex').slice(0, 10).toUpperCase();
const FIRST = ['Ahmet', 'Mehmet', 'Ayşe', 'Fatma', 'Mustafa', 'Emine', 'Ali', 'Hatice', 'Hüseyin', 'Zeynep', 'Hasan', 'Elif'];
const LAST = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan', 'Doğan'];

async function sql<T extends pg.QueryResultRow>(h: LedgerHarness, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: h.env.config.databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * ROWS of each kind for one site in one INSERT ... SELECT each: names from the lists above (so a surname is shared
 * by thousands), a unique `Seed<n>` word in each name and label, references, IBANs and bank ids per row.
 */
async function seed(h: LedgerHarness, siteId: string): Promise<void> {
  const [account] = await sql<{ id: string }>(h, 'SELECT id::text FROM receiving_bank_accounts LIMIT 1');
  const name = `(ARRAY['${FIRST.join("','")}'])[1 + g % ${FIRST.length}] || ' Seed' || g || ' ' || (ARRAY['${LAST.join("','")}'])[1 + (g / ${FIRST.length}) % ${LAST.length}]`;
  const iban = `'TR' || lpad(((g::bigint * 2654435761) % 1000000000000)::text, 12, '0') || lpad(g::text, 12, '0')`;
  const at = `now() - make_interval(secs => g * 7)`;
  await sql(
    h,
    `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, external_user_id, external_user_label,
       receiving_account_id, deposit_token_hash, expires_at, idempotency_key, idempotency_fingerprint, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, upper(substr(md5('d' || g), 1, 10)), 'APPROVED', 10000 + g, 10000 + g, 'seed-user-' || g, ${name},
       $2::uuid, md5(g::text) || md5('t' || g::text), ${at} + interval '30 minutes', 'seed-' || g, md5('f' || g::text) || md5('p' || g::text),
       ${at}, ${at}
     FROM generate_series(1, $3::int) AS g`,
    [siteId, account?.id, ROWS],
  );
  await sql(
    h,
    `INSERT INTO withdrawals (id, site_id, reference_no, status, requested_amount, amount, external_user_id, external_user_label,
       target_iban, target_holder_name, idempotency_key, idempotency_fingerprint, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, upper(substr(md5('w' || g), 1, 10)), 'SENT', 5000 + g, 5000 + g, 'seed-user-' || g, ${name},
       ${iban}, ${name}, 'seed-' || g, md5('w' || g::text) || md5('x' || g::text), ${at}, ${at}
     FROM generate_series(1, $2::int) AS g`,
    [siteId, ROWS],
  );
  // Descriptions as senders write them: deposit g's reference spaced and in lower case, or words without one. Lines of
  // the past, evaluated by the risk worker long ago (risk_checked_at): its pass would otherwise rewrite all 20,000 rows
  // between the VACUUM below and the plans, and the plans would read a table twice the size its statistics say.
  await sql(
    h,
    `INSERT INTO bank_transfers (id, bank_tx_id, line_key, amount, sender_name, sender_iban, description, received_at, status, created_at, risk_checked_at)
     SELECT gen_random_uuid(), 'SEEDTX' || g, 'SEEDTX' || g || '|C|' || (10000 + g) || '|2026-01-01|1', 10000 + g, upper(${name}), ${iban},
       CASE WHEN g % 2 = 0 THEN 'havale ' || substr(md5('d' || g), 1, 4) || ' ' || substr(md5('d' || g), 5, 6) ELSE 'kira odemesi ' || g END,
       ${at}, 'UNMATCHED', ${at}, ${at}
     FROM generate_series(1, $1::int) AS g`,
    [ROWS],
  );
  // Each deposit's intent.approved, its payload the webhook body the ledger writes (outbox.repository.ts): the ops
  // search answers events as the contract documents them, and refuses a payload that is not one.
  const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await sql(
    h,
    `WITH e AS (SELECT gen_random_uuid() AS event_id, d.* FROM deposit_intents d WHERE d.site_id = $1::uuid)
     INSERT INTO outbox_events (id, site_id, type, entity_id, payload, status, created_at, updated_at)
     SELECT event_id, $1::uuid, 'intent.approved', id,
       jsonb_build_object('eventId', event_id, 'type', 'intent.approved', 'createdAt', ${iso('created_at')}, 'livemode', true,
         'data', jsonb_build_object('intentId', id, 'referenceNo', reference_no, 'status', 'APPROVED', 'amount', amount::text,
           'currency', 'TRY', 'approvedAt', ${iso('created_at')}, 'rejectedAt', NULL, 'rejectedReason', NULL,
           'createdAt', ${iso('created_at')}, 'updatedAt', ${iso('updated_at')})),
       'DELIVERED', created_at, created_at
     FROM e`,
    [siteId],
  );
  // As autovacuum would after so many rows: statistics, and the trigram indexes' pending entries merged.
  await sql(h, 'VACUUM (ANALYZE) deposit_intents, withdrawals, bank_transfers, outbox_events');
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of the plan PostgreSQL chooses for `statement` (EXPLAIN, not run). */
async function planOf(h: LedgerHarness, statement: { text: string; values: unknown[] }): Promise<PlanNode[]> {
  const [row] = await sql<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(h, `EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values);
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(row!['QUERY PLAN'][0]!.Plan);
  return nodes;
}

const setup = useHarness(startLedgerHarness, async (h) => {
  const site = await h.createSite();
  await seed(h, site.siteId);
  return { site };
});

const search = async (q: string) => {
  const res = await setup.h.ops('GET', `/search?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return res.body as {
    deposits: Array<{ intentId: string; referenceNo: string; externalUserLabel?: string }>;
    withdrawals: Array<{ withdrawalId: string }>;
    bankTransfers: Array<{ bankTransferId: string; bankTxId: string; senderName: string }>;
    events: Array<{ eventId: string }>;
  };
};

describe('search over 20,000 records of each kind', () => {
  it('finds each field of a seeded record: reference, user id, name, IBAN tail, bank transaction id, ids', async () => {
    const byReference = await search(`${referenceOf(1234).slice(0, 5).toLowerCase()} ${referenceOf(1234).slice(5)}`);
    expect(byReference.deposits.map((d) => d.referenceNo)).toEqual([referenceOf(1234)]);
    // Transfer 1234's description carries the reference in lower case, split after 4: found however it was written.
    expect(byReference.bankTransfers.map((t) => t.bankTxId)).toEqual(['SEEDTX1234']);

    const byUser = await search('seed-user-777');
    expect(byUser.deposits).toHaveLength(1);
    expect(byUser.withdrawals).toHaveLength(1);
    expect(byUser.events).toHaveLength(1);

    const byName = await search('seed4321 ');
    expect(byName.deposits).toHaveLength(1);
    expect(byName.withdrawals).toHaveLength(1);
    expect(byName.bankTransfers.map((t) => t.bankTxId)).toEqual(['SEEDTX4321']);

    const byIban = await search('0000 0000 5678');
    expect(byIban.withdrawals).toHaveLength(1);
    expect(byIban.bankTransfers.map((t) => t.bankTxId)).toEqual(['SEEDTX5678']);

    const byBankTx = await search('SEEDTX999');
    expect(byBankTx.bankTransfers.map((t) => t.bankTxId)).toEqual(['SEEDTX999']);

    const deposit = byUser.deposits[0]!;
    expect((await search(deposit.intentId)).deposits.map((d) => d.intentId)).toEqual([deposit.intentId]);
    expect((await search(byUser.events[0]!.eventId)).events.map((e) => e.eventId)).toEqual([byUser.events[0]!.eventId]);

    // A surname a twelfth of everyone has: the newest 20 of each kind, newest first.
    const common = await search('Kaya');
    expect(common.deposits).toHaveLength(20);
    expect(common.bankTransfers).toHaveLength(20);
    expect(common.bankTransfers.map((t) => t.bankTxId).slice(0, 2)).toEqual(['SEEDTX12', 'SEEDTX13']);
    expect((await search('no-such-thing-anywhere')).deposits).toEqual([]);
  });

  it('reads an index for every kind of term, on every table, scoped or not', async () => {
    const { h, site } = setup;
    const [deposit] = await sql<{ id: string }>(h, `SELECT id::text FROM deposit_intents WHERE reference_no = $1`, [referenceOf(42)]);
    const cases: Array<{ q: string; scope: SiteScope; entityIds?: string[]; expect: string[] }> = [
      {
        q: referenceOf(42).toLowerCase(),
        scope: null,
        expect: ['deposit_intents_reference_no_key', 'bank_transfers_description_key_trgm_idx'],
      },
      { q: 'seed-user-42', scope: null, expect: ['deposit_intents_external_user_id_idx', 'withdrawals_external_user_id_idx'] },
      {
        q: 'Seed4242',
        scope: null,
        expect: ['deposit_intents_external_user_label_idx', 'withdrawals_target_holder_name_idx', 'bank_transfers_sender_name_idx'],
      },
      // A twelfth of everyone: trigram indexes or the newest-first ones (which the planner takes at a million rows,
      // docs/benchmarks.md), never the table.
      { q: 'Kaya', scope: null, expect: [] },
      { q: '0000 0042', scope: null, expect: ['withdrawals_target_iban_tail_idx', 'bank_transfers_sender_iban_tail_idx'] },
      { q: 'SEEDTX42', scope: null, expect: ['bank_transfers_bank_tx_id_idx'] },
      { q: deposit!.id, scope: null, entityIds: [deposit!.id], expect: ['deposit_intents_pkey', 'outbox_events_entity_id_idx'] },
      { q: 'nothing matches this', scope: null, expect: ['deposit_intents_external_user_label_idx'] },
      { q: 'seed-user-42', scope: [site.siteId], expect: ['deposit_intents_external_user_id_idx'] },
    ];
    for (const c of cases) {
      const statements = searchStatements(searchTermsOf(c.q), 20, c.scope, c.entityIds);
      const plans = await Promise.all(
        [statements.deposits, statements.withdrawals, statements.bankTransfers, statements.events]
          .filter((statement) => statement !== null)
          .map((statement) => planOf(h, statement)),
      );
      const nodes = plans.flat();
      const seqScans = nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
      expect({ q: c.q, seqScans }).toEqual({ q: c.q, seqScans: [] });
      const indexes = new Set(nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])));
      expect({ q: c.q, missing: c.expect.filter((name) => !indexes.has(name)) }).toEqual({ q: c.q, missing: [] });
    }
  });

  it('matches %, _ and \\ only as themselves in labels and sender names', async () => {
    const { h, site } = setup;
    const tag = randomUUID().slice(0, 8);
    const literal = await h.createDeposit(site, 10000, { externalUserLabel: `Ay_e Kampanya 50%\\off ${tag}` });
    const lookalike = await h.createDeposit(site, 10000, { externalUserLabel: `Ayşe Kampanya 50X\\off ${tag}` });
    const sender = await h.transfer('', 10100, { senderName: `AY_E KAMPANYA 50%OFF ${tag}` });
    const otherSender = await h.transfer('', 10200, { senderName: `AYSE KAMPANYA 50XOFF ${tag}` });
    expect([sender.status, otherSender.status]).toEqual([201, 201]);

    // As wildcards, `_` would match the ş and `%` the X of the lookalikes; as text they match only themselves.
    const underscore = await search(`Ay_e Kampanya`);
    expect(underscore.deposits.map((d) => d.intentId)).toEqual([literal.intentId]);
    expect(underscore.bankTransfers.map((t) => t.bankTransferId)).toEqual([sender.body.bankTransferId]);
    const percent = await search(`50%\\off ${tag}`);
    expect(percent.deposits.map((d) => d.intentId)).toEqual([literal.intentId]);
    expect((await search(`50%off ${tag}`)).bankTransfers.map((t) => t.bankTransferId)).toEqual([sender.body.bankTransferId]);
    // Patterns that, as wildcards, would match both records of the tag; as text, neither.
    expect((await search(`Ay%${tag}`)).deposits).toEqual([]);
    const underscores = await search(`A__e Kampanya`);
    expect([underscores.deposits, underscores.bankTransfers]).toEqual([[], []]);
    expect((await search(`Ayşe Kampanya`)).deposits.map((d) => d.intentId)).toEqual([lookalike.intentId]);
  });
});

const slow = useHarness(() => startLedgerHarness({ OPS_READ_TIMEOUT_MS: '300' }));

describe('a search that outlasts OPS_READ_TIMEOUT_MS', () => {
  it('is cancelled and answered 503 "narrow it", and the next search is answered again', async () => {
    const { h } = slow;
    const locker = new pg.Client({ connectionString: h.env.config.databaseUrl });
    await locker.connect();
    try {
      // Another transaction holds the table: the search's read waits for it until its statement timeout ends it.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE bank_transfers IN ACCESS EXCLUSIVE MODE');
      const timedOut = await h.ops('GET', '/search?q=Kaya');
      expect(timedOut.status).toBe(503);
      expect(timedOut.body).toMatchObject({ error: 'service_unavailable', status: 503, detail: 'The search took too long; narrow it.' });
      await locker.query('ROLLBACK');
      const again = await h.ops('GET', '/search?q=Kaya');
      expect(again.status).toBe(200);
    } finally {
      await locker.end();
    }
  });
});
