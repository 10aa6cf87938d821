/**
 * Ops search benchmark: `GET /ops/v1/search` of the compiled ledger (`node services/ledger/dist/main.js`,
 * NODE_ENV=production, LOG_LEVEL=info) over 1,000,000 deposits and 1,000,000 bank transfers.
 *
 *   npx tsx bench/search.bench.ts          (npm run bench -- search)
 *
 * 1. A fresh database, migrated; one site and receiving account through the ops API; then one INSERT ... SELECT
 *    generate_series per table (secondary indexes dropped for the insert and re-created from their own
 *    definitions, so the schema afterwards is the migrated one): deposits with names from a list as labels, random
 *    references, users; transfers paying those deposits (most MATCHED), their senders' names and random IBANs,
 *    descriptions carrying the reference as senders write it (spaced, lower case) or no reference at all.
 *    VACUUM (ANALYZE) and CHECKPOINT, as a production table is vacuumed.
 * 2. Searches of each kind (reference, user id, full name, surname, IBAN tail, record id, bank transaction id, a
 *    term with no match), each for a different random record: first one at a time, then 16 at a time.
 *    The CPU time of the ledger, of PostgreSQL and of this process is read from /proc around the parallel phase.
 * 3. The floor, in the same run: the parallel phase's terms again, 16 at a time, each sent as bare SQL by a pg Pool
 *    of this process, one index-only statement per kind (the fastest way PostgreSQL can answer that kind's main
 *    question), so that Kasa's figures are read as a ratio to what the machine did at that moment.
 * 4. The plan of each kind's statements (EXPLAIN ANALYZE of exactly what the ledger sends, search.repository.ts).
 *
 * Environment: BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_ROWS (default 1000000; at least 10000),
 * BENCH_SEARCHES (per kind and phase; default 40), BENCH_KEEP_DB=<name> (seed the database of that name once and
 * keep it: a later run with the same name and BENCH_ROWS migrates it and searches it without seeding again; drop it
 * by hand when done). Prints a JSON summary; rewrites only the search section of docs/benchmarks.md. Exits 0 when
 * the run completed (a missed goal is reported, not an error), 1 when it could not run.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { ensureDatabase } from '@kasa/db';
import { TEST_POSTGRES_BASE } from '../packages/testkit/src/index.js';
import { searchStatements } from '../services/ledger/src/search/search.repository.js';
import { searchTermsOf } from '../services/ledger/src/search/search-terms.js';
import { writeMarkedSection } from './lib/doc-section.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';
import { opsClient } from './lib/ops.js';
import { repoPath } from './lib/processes.js';
import { fmt, passFail, percentile } from './lib/report.js';
import { benchRun } from './lib/bench-run.js';
import { diff, snapshot, type CpuWindow } from './lib/cpu.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 40);
if (!Number.isInteger(ROWS) || ROWS < 10_000 || ROWS % 10 !== 0) throw new Error('BENCH_ROWS: a multiple of 10, at least 10000');
if (!Number.isInteger(SEARCHES) || SEARCHES < 5) throw new Error('BENCH_SEARCHES: a whole number of at least 5');
const KEEP_DB = process.env.BENCH_KEEP_DB ?? '';
if (KEEP_DB !== '' && !/^[a-z_][a-z0-9_]{0,62}$/.test(KEEP_DB)) throw new Error('BENCH_KEEP_DB: a database name of a-z, 0-9 and _');
const PARALLEL = 16;
const GOAL_P99_MS = 200;
const WATCHDOG_MS = 60 * 60_000;
const FIRST = ['Ahmet', 'Mehmet', 'Ayşe', 'Fatma', 'Mustafa', 'Emine', 'Ali', 'Hatice', 'Hüseyin', 'Zeynep'];
const MORE_FIRST = ['Hasan', 'Elif', 'İbrahim', 'Meryem', 'Murat', 'Esra', 'Ömer', 'Merve', 'Yusuf', 'Büşra'];
const LAST = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir'];
const MORE_LAST = ['Arslan', 'Doğan', 'Kılıç', 'Aslan', 'Çetin', 'Kara', 'Koç', 'Kurt', 'Özkan', 'Şimşek'];
const FIRST_NAMES = [...FIRST, ...MORE_FIRST];
const LAST_NAMES = [...LAST, ...MORE_LAST];

const KINDS = ['reference', 'userId', 'fullName', 'surname', 'ibanTail', 'recordId', 'bankTxId', 'noMatch'] as const;
type Kind = (typeof KINDS)[number];
const KIND_LABEL: Record<Kind, string> = {
  reference: 'reference, spoken form (`kd7m x4q2-rh`)',
  userId: "partner's user id",
  fullName: 'full name (1 in 400 share it)',
  surname: 'surname (1 in 20 share it)',
  ibanTail: "IBAN's last 8 digits, spaced",
  recordId: "deposit's id",
  bankTxId: 'bank transaction id',
  noMatch: 'a term nothing matches',
};

const log = (message: string) => process.stderr.write(`[search ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const load = () => loadavg().map((value) => round(value, 2)) as [number, number, number];

interface Stats {
  count: number;
  errors: number;
  statuses: Record<string, number>;
  ms: { p50: number; p95: number; p99: number; max: number };
}

function statsOf(samples: Array<{ ms: number; status: number }>): Stats {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    count: samples.length,
    errors: samples.filter((s) => s.status !== 200).length,
    statuses,
    ms: {
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? Number.NaN),
    },
  };
}

interface Plan {
  table: string;
  indexes: string[];
  seqScans: string[];
  executionMs: number;
  rows: number;
}

interface Summary extends RunHeader {
  benchmark: 'search';
  rows: { deposits: number; bankTransfers: number; withdrawals: number; events: number };
  seed: { reused: boolean; depositsMs: number; transfersMs: number; indexMs: number; vacuumMs: number; tableMb: Record<string, number> };
  loadAverage: { beforeSeed: number[]; beforeRuns: number[]; afterRuns: number[] };
  sequential: { all: Stats; byKind: Record<Kind, Stats> };
  parallel: { concurrency: number; wallSeconds: number; all: Stats; byKind: Record<Kind, Stats> };
  /** The same terms as bare SQL from this process (FLOOR_STATEMENTS), one at a time and 16 at a time. */
  floor: { sequential: Stats; parallel: { wallSeconds: number; all: Stats; byKind: Record<Kind, Stats> } };
  /** Kasa's p50 and p99 over the floor's, 16 at a time. */
  ratio: { p50: number; p99: number };
  /** CPU milliseconds per search of each component in the 16-at-a-time phases, and the machine's busy share then. */
  cpu: { kasa: Record<string, number>; floor: Record<string, number>; machineBusy: { kasa: number; floor: number } };
  plans: Record<Kind, Plan[]>;
  goals: Record<string, { goal: string; value: number; met: boolean }>;
  serviceErrorLogLines: number;
  wallSeconds: number;
}

async function withClient<T>(databaseUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const sqlArray = (values: string[]) => `(ARRAY['${values.join("','")}'])`;
// The n-th person: a first name and a surname from the lists (20 x 20 = 400 names), the same for deposit n and transfer n.
const NAME = `${sqlArray(FIRST_NAMES)}[1 + g % ${FIRST_NAMES.length}] || ' ' || ${sqlArray(LAST_NAMES)}[1 + (g / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]`;
const REFERENCE = `upper(substr(md5('r' || g), 1, 10))`;
const DEPOSIT_ID = `md5('deposit' || g)::uuid`;
const IBAN = `'TR' || lpad(((g::bigint * 2654435761) % 1000000000000)::text, 12, '0') || lpad(((g::bigint * 40503) % 1000000000000)::text, 12, '0')`;

/** Drops the table's secondary indexes, runs `insert`, re-creates them from their own definitions; the ms of each. */
async function bulkInsert(
  client: pg.Client,
  table: string,
  insert: () => Promise<unknown>,
): Promise<{ insertMs: number; indexMs: number }> {
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 AND indexname <> $1 || '_pkey'`,
    [table],
  );
  for (const index of indexes) await client.query(`DROP INDEX "${index.indexname}"`);
  const started = performance.now();
  await insert();
  const insertMs = performance.now() - started;
  for (const index of indexes) await client.query(index.indexdef);
  return { insertMs: Math.round(insertMs), indexMs: Math.round(performance.now() - started - insertMs) };
}

async function seed(databaseUrl: string, siteId: string, accountId: string): Promise<Summary['seed']> {
  return withClient(databaseUrl, async (client) => {
    await client.query(`SET statement_timeout = 0`);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    log(`seeding ${fmt(ROWS)} deposits`);
    const deposits = await bulkInsert(client, 'deposit_intents', () =>
      client.query(
        `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, external_user_id, external_user_label,
           receiving_account_id, deposit_token_hash, expires_at, received_amount, approved_at, idempotency_key, idempotency_fingerprint,
           created_at, updated_at)
         SELECT ${DEPOSIT_ID}, $1::uuid, ${REFERENCE}, 'APPROVED', 10000 + g % 500000, 10000 + g % 500000, 'user-' || (g % 200000),
           ${NAME}, $2::uuid, md5(g::text) || md5('t' || g::text), t + interval '30 minutes', 10000 + g % 500000, t + interval '10 minutes',
           'seed-' || g, md5('f' || g::text) || md5('p' || g::text), t, t + interval '10 minutes'
         FROM generate_series(1, $3::int) AS g,
           LATERAL (SELECT date_trunc('second', now()) - interval '1 hour' - make_interval(secs => g / 2.0) AS t) AS ts`,
        [siteId, accountId, ROWS],
      ),
    );
    log(`deposits: insert ${fmt(deposits.insertMs)} ms, indexes ${fmt(deposits.indexMs)} ms; seeding ${fmt(ROWS)} bank transfers`);
    // Transfer n pays deposit n (7 in 10 matched); its description carries the reference as a sender types it, or none.
    const transfers = await bulkInsert(client, 'bank_transfers', () =>
      client.query(
        `INSERT INTO bank_transfers (id, bank_tx_id, line_key, amount, sender_name, sender_iban, description, received_at, status, intent_id,
           receiving_account_id, created_at, risk_checked_at)
         SELECT gen_random_uuid(), 'BNK' || lpad(g::text, 10, '0'), 'BNK' || lpad(g::text, 10, '0') || '|C|' || (10000 + g % 500000) || '|1',
           10000 + g % 500000, ${NAME}, ${IBAN},
           CASE g % 5
             WHEN 0 THEN 'kira odemesi'
             WHEN 1 THEN ${REFERENCE}
             ELSE 'Havale ' || lower(substr(${REFERENCE}, 1, 4)) || ' ' || lower(substr(${REFERENCE}, 5, 4)) || '-' || lower(substr(${REFERENCE}, 9))
           END,
           t + interval '5 minutes',
           (CASE WHEN g % 10 < 7 THEN 'MATCHED' ELSE 'UNMATCHED' END)::"BankTransferStatus",
           CASE WHEN g % 10 < 7 THEN ${DEPOSIT_ID} END, $1::uuid, t + interval '5 minutes',
           -- Past lines, evaluated long ago by the risk worker (else its pass rewrites them all while the bench reads).
           t + interval '5 minutes'
         FROM generate_series(1, $2::int) AS g,
           LATERAL (SELECT date_trunc('second', now()) - interval '1 hour' - make_interval(secs => g / 2.0) AS t) AS ts`,
        [accountId, ROWS],
      ),
    );
    log(`transfers: insert ${fmt(transfers.insertMs)} ms, indexes ${fmt(transfers.indexMs)} ms; withdrawals and events`);
    // Fewer of these, so that their statements too read real tables: a withdrawal for every tenth person, and
    // one event for each of the first tenth of the deposits.
    const others = ROWS / 10;
    const withdrawals = await bulkInsert(client, 'withdrawals', () =>
      client.query(
        `INSERT INTO withdrawals (id, site_id, reference_no, status, requested_amount, amount, external_user_id, external_user_label,
           target_iban, target_holder_name, idempotency_key, idempotency_fingerprint, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, upper(substr(md5('w' || g), 1, 10)), 'SENT', 5000 + g % 100000, 5000 + g % 100000,
           'user-' || (g % 200000), ${NAME}, ${IBAN}, ${NAME}, 'seed-' || g, md5('w' || g) || md5('x' || g), t, t
         FROM generate_series(10, $2::int, 10) AS g,
           LATERAL (SELECT date_trunc('second', now()) - interval '1 hour' - make_interval(secs => g / 2.0) AS t) AS ts`,
        [siteId, ROWS],
      ),
    );
    const events = await bulkInsert(client, 'outbox_events', () =>
      client.query(
        `INSERT INTO outbox_events (id, site_id, type, entity_id, payload, status, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, 'intent.approved', ${DEPOSIT_ID}, '{}'::jsonb, 'DELIVERED', t, t
         FROM generate_series(1, $2::int) AS g,
           LATERAL (SELECT date_trunc('second', now()) - interval '1 hour' - make_interval(secs => g / 2.0) AS t) AS ts`,
        [siteId, others],
      ),
    );
    log(
      `withdrawals and events: ${fmt(withdrawals.insertMs + events.insertMs)} ms, indexes ${fmt(withdrawals.indexMs + events.indexMs)} ms; VACUUM (ANALYZE), CHECKPOINT`,
    );
    const vacuumStarted = performance.now();
    await client.query('VACUUM (ANALYZE) deposit_intents, bank_transfers, withdrawals, outbox_events');
    await client.query('CHECKPOINT').catch(() => undefined);
    const vacuumMs = Math.round(performance.now() - vacuumStarted);
    return {
      reused: false,
      depositsMs: deposits.insertMs,
      transfersMs: transfers.insertMs,
      indexMs: deposits.indexMs + transfers.indexMs + withdrawals.indexMs + events.indexMs,
      vacuumMs,
      tableMb: await tableMb(databaseUrl),
    };
  });
}

async function tableMb(databaseUrl: string): Promise<Record<string, number>> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ relname: string; mb: string }>(
      `SELECT relname, round(pg_total_relation_size(oid) / 1048576.0) AS mb FROM pg_class WHERE relname IN ('deposit_intents', 'bank_transfers')`,
    );
    return Object.fromEntries(rows.map((row) => [row.relname, Number(row.mb)]));
  });
}

/** `count` terms of each kind, each for a different random record of the seed. */
function termsOf(kind: Kind, count: number): string[] {
  const pick = () => 1 + Math.floor(Math.random() * ROWS);
  return Array.from({ length: count }, (_, i) => {
    const g = pick();
    switch (kind) {
      case 'reference': {
        const reference = md5Prefix(`r${g}`).toLowerCase();
        return `${reference.slice(0, 4)} ${reference.slice(4, 8)}-${reference.slice(8)}`;
      }
      case 'userId':
        return `user-${g % 200_000}`;
      case 'fullName':
        return `${FIRST_NAMES[g % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(g / FIRST_NAMES.length) % LAST_NAMES.length]}`;
      case 'surname':
        return LAST_NAMES[g % LAST_NAMES.length] as string;
      case 'ibanTail': {
        const tail = String((BigInt(g) * 40503n) % 1_000_000_000_000n)
          .padStart(12, '0')
          .slice(-8);
        return `${tail.slice(0, 4)} ${tail.slice(4)}`;
      }
      case 'recordId':
        return uuidOf(`deposit${g}`);
      case 'bankTxId':
        return `BNK${String(g).padStart(10, '0')}`;
      case 'noMatch':
        return `nobody-${i}-${Math.random().toString(36).slice(2, 8)}`;
    }
  });
}

const md5Prefix = (text: string) => createHash('md5').update(text).digest('hex').slice(0, 10).toUpperCase();

/** The uuid PostgreSQL's md5(text)::uuid makes. */
const uuidOf = (text: string) =>
  createHash('md5')
    .update(text)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

async function timedSearch(ledgerUrl: string, token: string, q: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(`${ledgerUrl}/ops/v1/search?q=${encodeURIComponent(q)}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(60_000),
  }).catch(() => null);
  if (!response) return { ms: performance.now() - started, status: 0 };
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

async function explainKind(databaseUrl: string, q: string): Promise<Plan[]> {
  const statements = searchStatements(searchTermsOf(q), 20, null, [uuidOf('deposit1')]);
  const entries = Object.entries(statements).filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== null);
  return withClient(databaseUrl, async (client) => {
    const plans: Plan[] = [];
    for (const [table, statement] of entries) {
      interface Node {
        'Node Type': string;
        'Relation Name'?: string;
        'Index Name'?: string;
        'Actual Rows'?: number;
        Plans?: Node[];
      }
      const explain = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`;
      await client.query(explain, statement.values);
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: Node; 'Execution Time': number }> }>(explain, statement.values);
      const top = rows[0]?.['QUERY PLAN'][0] as { Plan: Node; 'Execution Time': number };
      const nodes: Node[] = [];
      const walk = (node: Node) => {
        nodes.push(node);
        node.Plans?.forEach(walk);
      };
      walk(top.Plan);
      plans.push({
        table,
        indexes: [...new Set(nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])))],
        seqScans: nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'] ?? '?'),
        executionMs: round(top['Execution Time'], 2),
        rows: top.Plan['Actual Rows'] ?? 0,
      });
    }
    return plans;
  });
}

/** The keyed database's seed, when BENCH_KEEP_DB names one already seeded with BENCH_ROWS deposits: its site. */
async function seededSite(databaseUrl: string): Promise<string | null> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ n: number; site: string | null }>(
      `SELECT count(*)::int AS n, min(site_id::text) AS site FROM deposit_intents`,
    );
    const found = rows[0] ?? { n: 0, site: null };
    if (found.n === 0) return null;
    if (found.n !== ROWS)
      throw new Error(`BENCH_KEEP_DB=${KEEP_DB} holds ${found.n} deposits, not BENCH_ROWS=${ROWS}: drop it or set BENCH_ROWS`);
    return found.site;
  });
}

/** Sends `queue` `PARALLEL` at a time through `send`; each sample with its kind. */
async function inParallel(
  queue: Array<{ kind: Kind; q: string }>,
  send: (q: string, kind: Kind) => Promise<{ ms: number; status: number }>,
): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < queue.length) {
        const item = queue[next] as { kind: Kind; q: string };
        next += 1;
        samples.push({ kind: item.kind, ...(await send(item.q, item.kind)) });
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

type Sample = { kind: Kind; ms: number; status: number };

/**
 * The floor's one statement per kind: what PostgreSQL needs at least to answer that kind's main question from an
 * index (a deposit by reference, user, name or id; a transfer by IBAN tail or bank transaction id), with no
 * application in between.
 */
const FLOOR_STATEMENTS: Record<Kind, { text: string; value: (q: string) => string }> = {
  reference: { text: `SELECT id FROM deposit_intents WHERE reference_no = $1`, value: (q) => q.toUpperCase().replace(/[\s-]+/g, '') },
  userId: {
    text: `SELECT id FROM deposit_intents WHERE external_user_id = $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
    value: (q) => q,
  },
  fullName: {
    text: `SELECT id FROM deposit_intents WHERE external_user_label ILIKE $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
    value: (q) => `%${q}%`,
  },
  surname: {
    text: `SELECT id FROM deposit_intents WHERE external_user_label ILIKE $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
    value: (q) => `%${q}%`,
  },
  ibanTail: {
    text: `SELECT id FROM bank_transfers WHERE reverse(sender_iban) LIKE $1 ORDER BY created_at DESC, id DESC LIMIT 20`,
    value: (q) => `${[...q.replace(/\s+/g, '')].reverse().join('')}%`,
  },
  recordId: { text: `SELECT id FROM deposit_intents WHERE id = $1::uuid`, value: (q) => q },
  bankTxId: { text: `SELECT id FROM bank_transfers WHERE bank_tx_id = $1`, value: (q) => q },
  noMatch: { text: `SELECT id FROM deposit_intents WHERE external_user_id = $1 LIMIT 20`, value: (q) => q },
};

async function floorSearch(pool: pg.Pool, q: string, kind: Kind): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const statement = FLOOR_STATEMENTS[kind];
  const status = await pool.query(statement.text, [statement.value(q)]).then(
    () => 200,
    () => 0,
  );
  return { ms: performance.now() - started, status };
}

/** CPU milliseconds per search of each component over a window of `count` searches. */
function cpuPerSearch(window: CpuWindow, count: number): Record<string, number> {
  return Object.fromEntries(Object.entries(window.ms).map(([name, ms]) => [name, round(ms / count, 2)]));
}

async function main(): Promise<void> {
  const wallStart = performance.now();
  const startedAt = new Date().toISOString();
  const code = gitState(repoPath());
  const keptUrl = KEEP_DB ? `${TEST_POSTGRES_BASE}/${KEEP_DB}` : null;
  const prepare = async (): Promise<Record<string, string>> => {
    if (!keptUrl) return {};
    await ensureDatabase(keptUrl);
    return { DATABASE_URL: keptUrl };
  };
  await benchRun(
    { database: 'kasa_bench_search', watchdogMs: WATCHDOG_MS, log, prepare },
    async ({ env, databaseUrl: freshUrl, start }) => {
      const databaseUrl = keptUrl ?? freshUrl;
      const databaseName = new URL(databaseUrl).pathname.slice(1);
      const ledger = await start('ledger');
      const token = env.OPS_BOOTSTRAP_TOKEN as string;
      const beforeSeed = load();
      const kept = keptUrl ? await seededSite(databaseUrl) : null;
      let seeded: Summary['seed'];
      if (kept) {
        log(`BENCH_KEEP_DB=${KEEP_DB}: searching the ${fmt(ROWS)} rows seeded before`);
        seeded = { reused: true, depositsMs: 0, transfersMs: 0, indexMs: 0, vacuumMs: 0, tableMb: await tableMb(databaseUrl) };
      } else {
        const ops = opsClient(ledger.url, token);
        const site = await ops.createSite(`bench-search-${process.pid}`, 1000);
        const account = await ops.createReceivingAccount();
        seeded = await seed(databaseUrl, site.siteId, account.id);
      }
      const terms = Object.fromEntries(KINDS.map((kind) => [kind, termsOf(kind, SEARCHES)])) as Record<Kind, string[]>;
      // Each kind's terms again, others this time, for the parallel phase.
      const parallelTerms = Object.fromEntries(KINDS.map((kind) => [kind, termsOf(kind, SEARCHES)])) as Record<Kind, string[]>;

      // A few searches first, so the ledger's connections and the database's caches are warm as in service.
      for (const kind of KINDS) await timedSearch(ledger.url, token, terms[kind][0] as string);
      const beforeRuns = load();
      log(`sequential: ${KINDS.length} kinds x ${SEARCHES}, load average ${beforeRuns.join(' ')}`);
      const sequentialSamples: Sample[] = [];
      // Interleaved by kind, so that a moment of load elsewhere on the machine falls on every kind alike.
      for (let i = 0; i < SEARCHES; i += 1) {
        for (const kind of KINDS) sequentialSamples.push({ kind, ...(await timedSearch(ledger.url, token, terms[kind][i] as string)) });
      }
      log(`parallel: ${KINDS.length} kinds x ${SEARCHES}, ${PARALLEL} at a time`);
      const queue = KINDS.flatMap((kind) => parallelTerms[kind].map((q) => ({ kind, q }))).sort(() => Math.random() - 0.5);
      const cpuTargets = { children: { ledger: ledger.pid }, databaseName };
      const kasaCpuBefore = snapshot(cpuTargets);
      const kasaRun = await inParallel(queue, (q) => timedSearch(ledger.url, token, q));
      const kasaCpu = diff(kasaCpuBefore, snapshot(cpuTargets));
      const parallelSamples = kasaRun.samples;
      const parallelSeconds = kasaRun.seconds;
      log(`floor: the same ${queue.length} terms as bare SQL, ${PARALLEL} at a time`);
      const floorPool = new pg.Pool({ connectionString: databaseUrl, max: PARALLEL });
      const floorSequential: Sample[] = [];
      let floorRun: { samples: Sample[]; seconds: number };
      let floorCpu: CpuWindow;
      try {
        // Every connection opened before the clock starts, as the ledger's are after its warm-up searches.
        await inParallel(queue.slice(0, PARALLEL * 2), (q, kind) => floorSearch(floorPool, q, kind));
        for (let i = 0; i < SEARCHES; i += 1) {
          for (const kind of KINDS) floorSequential.push({ kind, ...(await floorSearch(floorPool, terms[kind][i] as string, kind)) });
        }
        const floorCpuBefore = snapshot(cpuTargets);
        floorRun = await inParallel(queue, (q, kind) => floorSearch(floorPool, q, kind));
        floorCpu = diff(floorCpuBefore, snapshot(cpuTargets));
      } finally {
        await floorPool.end();
      }
      const afterRuns = load();
      log('plans');
      const plans = {} as Record<Kind, Plan[]>;
      for (const kind of KINDS) plans[kind] = await explainKind(databaseUrl, terms[kind][0] as string);

      const byKind = (samples: Array<{ kind: Kind; ms: number; status: number }>) =>
        Object.fromEntries(KINDS.map((kind) => [kind, statsOf(samples.filter((s) => s.kind === kind))])) as Record<Kind, Stats>;
      const sequential = { all: statsOf(sequentialSamples), byKind: byKind(sequentialSamples) };
      const parallel = {
        concurrency: PARALLEL,
        wallSeconds: round(parallelSeconds, 2),
        all: statsOf(parallelSamples),
        byKind: byKind(parallelSamples),
      };
      const floor = {
        sequential: statsOf(floorSequential),
        parallel: { wallSeconds: round(floorRun.seconds, 2), all: statsOf(floorRun.samples), byKind: byKind(floorRun.samples) },
      };
      const seqScans = KINDS.flatMap((kind) => plans[kind].flatMap((plan) => plan.seqScans));
      const summary: Summary = {
        benchmark: 'search',
        ...runHeader(startedAt, code),
        rows: { deposits: ROWS, bankTransfers: ROWS, withdrawals: ROWS / 10, events: ROWS / 10 },
        seed: seeded,
        loadAverage: { beforeSeed, beforeRuns, afterRuns },
        sequential,
        parallel,
        floor,
        ratio: {
          p50: round(parallel.all.ms.p50 / floor.parallel.all.ms.p50),
          p99: round(parallel.all.ms.p99 / floor.parallel.all.ms.p99),
        },
        cpu: {
          kasa: cpuPerSearch(kasaCpu, queue.length),
          floor: cpuPerSearch(floorCpu, queue.length),
          machineBusy: { kasa: round(kasaCpu.machineBusy, 2), floor: round(floorCpu.machineBusy, 2) },
        },
        plans,
        goals: {
          sequentialP99: {
            goal: `< ${GOAL_P99_MS} ms`,
            value: sequential.all.ms.p99,
            met: sequential.all.errors === 0 && sequential.all.ms.p99 < GOAL_P99_MS,
          },
          parallelP99: {
            goal: `< ${GOAL_P99_MS} ms`,
            value: parallel.all.ms.p99,
            met: parallel.all.errors === 0 && parallel.all.ms.p99 < GOAL_P99_MS,
          },
          seqScans: { goal: '0', value: seqScans.length, met: seqScans.length === 0 },
        },
        serviceErrorLogLines: ledger.errorLines(),
        wallSeconds: Math.round((performance.now() - wallStart) / 1000),
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      if (process.env.BENCH_NO_DOCS !== '1')
        await writeMarkedSection(repoPath('docs', 'benchmarks.md'), 'search', 'Ops search', report(summary));
    },
  );
}

function report(s: Summary): string {
  const row = (label: string, seq: Stats, par: Stats) =>
    `| ${label} | ${fmt(seq.ms.p50)} / ${fmt(seq.ms.p95)} / ${fmt(seq.ms.p99)} / ${fmt(seq.ms.max)} | ${fmt(par.ms.p50)} / ${fmt(par.ms.p95)} / ${fmt(par.ms.p99)} / ${fmt(par.ms.max)} | ${seq.errors + par.errors} |`;
  const planRows = KINDS.map(
    (kind) =>
      `| ${KIND_LABEL[kind]} | ${s.plans[kind].map((p) => `${p.table}: ${p.indexes.length > 0 ? p.indexes.map((i) => `\`${i}\``).join(', ') : 'no index'}${p.seqScans.length > 0 ? ` **seq scan of ${p.seqScans.join(', ')}**` : ''} (${p.executionMs} ms, ${p.rows} rows)`).join('; ')} |`,
  );
  return [
    `Run ${s.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- search\` (${s.wallSeconds} s wall), commit ${s.commit}${s.dirtyFiles > 0 ? ` with ${s.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${s.cpus} CPUs (${s.cpuModel}), Node ${s.node}. **Load average** (1, 5, 15 min) before the seed ${s.loadAverage.beforeSeed.join(', ')}, before the searches ${s.loadAverage.beforeRuns.join(', ')}, after them ${s.loadAverage.afterRuns.join(', ')}: the machine was shared with other work, so these figures are an upper bound; regenerate on a quiet machine.`,
    '',
    `**Method:** the compiled ledger (\`node services/ledger/dist/main.js\`, NODE_ENV=production, LOG_LEVEL=info) on a ${s.seed.reused ? 'migrated database seeded by an earlier run (BENCH_KEEP_DB)' : 'fresh, migrated database'}, PostgreSQL on this machine. Seeded with one INSERT ... SELECT generate_series per table (secondary indexes dropped for it and re-created): ${fmt(s.rows.deposits)} deposits (insert ${fmt(s.seed.depositsMs / 1000, 1)} s) and ${fmt(s.rows.bankTransfers)} bank transfers (${fmt(s.seed.transfersMs / 1000, 1)} s), and ${fmt(s.rows.withdrawals)} withdrawals and ${fmt(s.rows.events)} webhook events so that their statements read real tables too; indexes re-built in ${fmt(s.seed.indexMs / 1000, 1)} s, then VACUUM (ANALYZE) and CHECKPOINT (${fmt(s.seed.vacuumMs / 1000, 1)} s); deposit_intents ${fmt(s.seed.tableMb.deposit_intents ?? 0)} MB and bank_transfers ${fmt(s.seed.tableMb.bank_transfers ?? 0)} MB with their indexes. Names from a list of 20 first names and 20 surnames (400 names), random references and IBANs, 200,000 partner users; 7 in 10 transfers matched to their deposit; 3 in 5 descriptions carry the reference spaced and in lower case, 1 in 5 as is, 1 in 5 none. Each search is \`GET /ops/v1/search?q=\` for a different random record (limit 20, every kind of record at once), timed at the client: ${SEARCHES_TEXT(s)} one at a time (kinds interleaved), then as many others ${s.parallel.concurrency} at a time (${s.parallel.wallSeconds} s).`,
    '',
    '| Search | One at a time: p50 / p95 / p99 / max ms | 16 at a time: p50 / p95 / p99 / max ms | Not 200 |',
    '|---|---:|---:|---:|',
    ...KINDS.map((kind) => row(KIND_LABEL[kind], s.sequential.byKind[kind], s.parallel.byKind[kind])),
    row('**all**', s.sequential.all, s.parallel.all),
    '',
    `**Floor, same run:** the same terms sent as bare SQL by a pg Pool of the bench process, one index-only statement per kind (FLOOR_STATEMENTS in bench/search.bench.ts): one at a time p50 / p99 ${fmt(s.floor.sequential.ms.p50, 1)} / ${fmt(s.floor.sequential.ms.p99, 1)} ms; 16 at a time ${fmt(s.floor.parallel.all.ms.p50, 1)} / ${fmt(s.floor.parallel.all.ms.p99, 1)} ms (${s.floor.parallel.wallSeconds} s). **Kasa / floor**, 16 at a time: p50 ${s.ratio.p50}x, p99 ${s.ratio.p99}x.`,
    '',
    `**CPU per search** (16 at a time, from /proc, 10 ms ticks): ${cpuText(s.cpu.kasa)}; the floor ${cpuText(s.cpu.floor)}. The machine was ${Math.round(s.cpu.machineBusy.kasa * 100)} % busy during Kasa's phase, ${Math.round(s.cpu.machineBusy.floor * 100)} % during the floor's.`,
    '',
    `**16 at a time** the ledger answered ${fmt(s.parallel.all.count / s.parallel.wallSeconds, 1)} searches/s. With 16 in flight at that rate each takes ${fmt((16 / (s.parallel.all.count / s.parallel.wallSeconds)) * 1000)} ms on average (Little's law), close to the measured median: the time is spent waiting for the ${s.cpus} CPUs (the ledger's Node.js thread, PostgreSQL, this load generator and the rest of the machine's load), not in the statements, whose plans and times follow.`,
    '',
    `**Plans** (EXPLAIN ANALYZE of the statements the ledger sends for each kind, search.repository.ts, warm cache; the events statement with one deposit's id as the records found):`,
    '',
    '| Search | Indexes read per statement (execution time, rows) |',
    '|---|---|',
    ...planRows,
    '',
    '| Goal | Figure | |',
    '|---|---:|---|',
    `| search p99 < ${GOAL_P99_MS} ms, one at a time | ${fmt(s.sequential.all.ms.p99, 1)} ms | ${passFail(s.goals.sequentialP99?.met ?? false)} |`,
    `| search p99 < ${GOAL_P99_MS} ms, 16 at a time | ${fmt(s.parallel.all.ms.p99, 1)} ms | ${passFail(s.goals.parallelP99?.met ?? false)} |`,
    `| no statement reads a whole table | ${s.goals.seqScans?.value ?? 'n/a'} sequential scans | ${passFail(s.goals.seqScans?.met ?? false)} |`,
    '',
    `Ledger error log lines during the run: ${s.serviceErrorLogLines}.`,
  ].join('\n');
}

const cpuText = (perSearch: Record<string, number>) =>
  Object.entries(perSearch)
    .filter(([, ms]) => ms > 0)
    .map(([name, ms]) => `${name} ${fmt(ms, 2)} ms`)
    .join(', ');

const SEARCHES_TEXT = (s: Summary) => `${fmt(s.sequential.all.count)} searches (${SEARCHES} of each kind)`;

await main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
