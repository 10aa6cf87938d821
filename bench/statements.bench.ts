/**
 * Statements benchmark: statement import and matching, straight-through approval and the bank connector's
 * line-to-webhook latency, over the compiled services (`node services/<name>/dist/main.js`, NODE_ENV=production,
 * LOG_LEVEL=info) on a fresh database, with a local HTTPS webhook receiver. Statements and lines go through the ops
 * API; the deposits a statement pays are written with SQL (bench/lib/seed-statement-deposits.ts: 100,000 through the
 * partner API would take minutes), the latency run's through the partner API (gateway).
 *
 *   npx tsx bench/statements.bench.ts          (npm run bench -- statements)
 *
 * 1. For each size (1,000, 10,000 and 100,000 lines, each its own receiving account and deposits): seed the
 *    deposits the statement pays, then import one CSV file of two overlapping statements whose lines have known
 *    truth (bench/lib/statement-plan.ts: clean, near reference, less, more, split, late, duplicate, other sender,
 *    unknown). Timed: the import request (parse, record, deduplicate, match, commit; a small file's approvals too),
 *    while /healthz and an operator's list are polled; then until the approvals left to follow-ups are all done; then
 *    the floor: the same lines by one bare multi-row INSERT into a table like bank_transfers (bench/lib/statement-floor.ts).
 * 2. Every APPROVED deposit of the site (ops list) must be a clean one, approved for its amount; the share of
 *    clean deposits approved; each near line's transfer (GET) must suggest its deposit first.
 * 3. Clean lines posted one per request to the connector API at 50 lines/s for 20 s; the receiver records when
 *    each deposit's `intent.approved` arrives.
 *
 * Environment: BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_SIZES (default 1000,10000,100000),
 * BENCH_CPU_PROF_DIR (the ledger runs with --cpu-prof there), BENCH_PG_LOG (PostgreSQL's log file, readable: each
 * statement of the run's database is logged with its duration and those of each import counted; no polling then).
 * Prints a JSON summary; rewrites only the statements section of docs/benchmarks.md. Exits 0 when the run
 * completed (missed goals are reported, not errors), 1 when it could not run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import pg from 'pg';
import { makeTrIban } from '../packages/testkit/src/index.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from '../services/webhook-worker/test/support/receiver.js';
import { writeMarkedSection } from './lib/doc-section.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';
import { opsClient, type OpsClient } from './lib/ops.js';
import { repoPath } from './lib/processes.js';
import { fmt, passFail, percentile } from './lib/report.js';
import {
  KINDS,
  lineCounts,
  planDeposits,
  planLines,
  statementCsv,
  type CreatedDeposit,
  type Kind,
  type PlannedDeposit,
  type PlannedLine,
} from './lib/statement-plan.js';
import { benchRun } from './lib/bench-run.js';
import { seedStatementDeposits } from './lib/seed-statement-deposits.js';
import { floorInsert, followUpsDone, pollDuring, type Polled } from './lib/statement-floor.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map((size) => {
  const n = Number(size);
  if (!Number.isInteger(n) || n < 100 || n > 100_000) throw new Error('BENCH_SIZES: whole numbers from 100 to 100000');
  return n;
});
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR;
const PG_LOG = process.env.BENCH_PG_LOG;
const CREATE_CONCURRENCY = 32;
const MAX_AUTO_AMOUNT = 1_000_000n; // 10,000.00 TL: above every planned deposit
const LATENCY_RATE = 50;
const LATENCY_SECONDS = 20;
const WATCHDOG_MS = 30 * 60_000;
const GOALS = {
  importSeconds10k: 2,
  importSeconds100k: 20,
  othersP99Ms: 200,
  wrongApprovals: 0,
  cleanShare: 0.99,
  nearCorrect: 1,
  latencyP99Ms: 1000,
} as const;

const log = (message: string) => process.stderr.write(`[statements ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task` over `items` with at most `concurrency` at a time. */
async function pool<T, R>(items: readonly T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        results[index] = await task(items[index] as T, index);
      }
    }),
  );
  return results;
}

interface SizeRun {
  lines: number;
  /** The import's HTTP status; not ok: refused, nothing imported. */
  status: number;
  ok: boolean;
  accountId: string;
  deposits: number;
  createSeconds: number;
  createPerSecond: number;
  importSeconds: number;
  /** The same lines by one bare multi-row INSERT into a table like bank_transfers (statement-floor.ts). */
  floorSeconds: number;
  floorRatio: number;
  /** From the import's start until no follow-up of the account was pending (null: not within 10 minutes). */
  approvalsSeconds: number | null;
  /** Statements PostgreSQL logged for the run's database during the import (BENCH_PG_LOG), null when not counted. */
  statements: number | null;
  others: Polled[];
  msPerLine: number;
  fileBytes: number;
  answer: Record<string, unknown>;
  expected: Record<string, number>;
  kinds: Record<Kind, number>;
}

interface Summary extends RunHeader {
  benchmark: 'statements';
  sizes: SizeRun[];
  reimport: { lines: number; status: number; seconds: number; answer: Record<string, unknown> };
  approvals: {
    approved: number;
    wrong: number;
    wrongSamples: Array<{ intentId: string; kind: string; amount: string; requested: string }>;
    cleanLines: number;
    cleanApproved: number;
    cleanShare: number;
  };
  near: { lines: number; checked: number; correct: number; wrongSamples: Array<{ bankTxId: string; first: string | null }> };
  latency: {
    sent: number;
    rejected: number;
    seconds: number;
    webhooks: number;
    missing: number;
    ms: { p50: number; p95: number; p99: number; max: number };
  };
  serviceErrorLogLines: Record<string, number>;
  goals: Record<string, { goal: string; value: number; met: boolean }>;
  wallSeconds: number;
}

async function main(): Promise<void> {
  const wallStart = performance.now();
  const startedAt = new Date().toISOString();
  const code = gitState(repoPath());
  let tls: TestTls | undefined;
  let receiver: Receiver | undefined;
  const prepare = async () => {
    tls = makeTestTls();
    receiver = await startReceiver(tls, () => 200);
    return { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost', WEBHOOK_CA_FILE: tls.caFile };
  };
  const cleanup = async () => {
    await receiver?.close().catch(() => undefined);
    tls?.cleanup();
  };
  await benchRun(
    { database: 'kasa_bench_statements', watchdogMs: WATCHDOG_MS, log, prepare, cleanup },
    async ({ env, databaseUrl, start }) => {
      if (!receiver) throw new Error('no webhook receiver');
      // The ledger's statements, counted from PostgreSQL's log (lines of this database only): BENCH_PG_LOG names the file.
      if (PG_LOG) await setLogStatements(databaseUrl);
      const ledger = await start('ledger', CPU_PROF_DIR ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${CPU_PROF_DIR}` } : {});
      const gateway = await start('gateway', { LEDGER_URL: ledger.url });
      const services = [ledger, gateway, await start('webhook-worker')];
      log(`ledger ${ledger.url}, gateway ${gateway.url}, database ${new URL(databaseUrl).pathname.slice(1)}`);

      const ops = opsClient(ledger.url, env.OPS_BOOTSTRAP_TOKEN as string);
      const site = await ops.createSite(`bench-statements-${process.pid}`, 10_000_000);
      const settings = await ops.call('PATCH', `/ops/v1/sites/${site.siteId}`, {
        webhookUrl: `${receiver.url}/kasa`,
        autoApprove: { enabled: true, maxAmount: MAX_AUTO_AMOUNT.toString(), requireSenderMatch: true },
      });
      if (settings.status !== 200) throw new Error(`site settings: ${settings.status} ${JSON.stringify(settings.body)}`);
      const { apiKey } = await ops.issueKey(site.siteId);

      const createDeposits = async (planned: PlannedDeposit[], tag: string): Promise<CreatedDeposit[]> =>
        pool(planned, CREATE_CONCURRENCY, async (deposit) => {
          const response = await fetch(`${gateway.url}/api/v1/external/deposits`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${apiKey}`,
              'content-type': 'application/json',
              'idempotency-key': `${tag}-${deposit.index}`,
            },
            body: JSON.stringify({
              externalUserId: `user-${tag}-${deposit.index}`,
              externalUserLabel: deposit.label,
              amount: deposit.amount.toString(),
            }),
            signal: AbortSignal.timeout(30_000),
          });
          const body = (await response.json()) as { intentId?: string; referenceNo?: string };
          if (response.status !== 201 || !body.intentId || !body.referenceNo) {
            throw new Error(`create deposit: ${response.status} ${JSON.stringify(body)}`);
          }
          return { ...deposit, intentId: body.intentId, referenceNo: body.referenceNo };
        });

      /** Truth of every deposit and line of the run. */
      const depositKind = new Map<string, { kind: Kind | 'unpaid'; amount: bigint }>();
      const allLines: PlannedLine[] = [];
      const sizes: SizeRun[] = [];
      const files = new Map<number, { accountId: string; csv: string }>();

      for (const [n, lines] of SIZES.entries()) {
        const account = await newAccount(ops);
        const planned = planDeposits(lines);
        log(`${fmt(lines)} lines: seeding ${fmt(planned.length)} deposits with SQL`);
        const createStarted = performance.now();
        const deposits = await seedStatementDeposits(databaseUrl, site.siteId, account.id, planned, `s${n}`);
        const createSeconds = (performance.now() - createStarted) / 1000;
        for (const deposit of deposits) depositKind.set(deposit.intentId, { kind: deposit.kind, amount: deposit.amount });
        const counts = lineCounts(lines);
        const planLinesOut = planLines(`BNK${n}T`, counts.unknown, deposits, new Date());
        const csv = statementCsv(account.iban, `BENCH-${n}`, planLinesOut, counts.duplicate);
        files.set(lines, { accountId: account.id, csv });
        log(`${fmt(lines)} lines: importing (${fmt(Buffer.byteLength(csv) / 1024)} KiB CSV)`);
        const mark = logMark();
        const token = env.OPS_BOOTSTRAP_TOKEN as string;
        const importStarted = performance.now();
        const importing = importCsv(ledger.url, token, account.id, csv);
        // Other requests meanwhile, one at a time each: the ledger's liveness and an operator's read.
        // Not while statements are counted: the operator's read would be counted with the import's.
        const others = PG_LOG
          ? []
          : await Promise.all([
              pollDuring(ledger.url, '/healthz', {}, importing),
              pollDuring(ledger.url, '/ops/v1/bank-transfers?status=UNMATCHED&limit=20', { authorization: `Bearer ${token}` }, importing),
            ]);
        const { seconds, status, ok, answer } = await importing;
        const statements = statementsSince(mark, new URL(databaseUrl).pathname.slice(1));
        if (PG_LOG) log(`${fmt(lines)} lines: ${fmt(statements)} statements sent to PostgreSQL during the import`);
        // The approvals the answer left to follow-ups: when the last of them was done, from the import's start.
        const approvalsMs = ok ? await followUpsDone(databaseUrl, account.id, importStarted, 600_000) : null;
        const floor = await floorInsert(databaseUrl, account.id, csv);
        log(
          `${fmt(lines)} lines: floor ${fmt(floor.ms)} ms (${fmt(floor.rows)} rows), approvals done ${approvalsMs === null ? 'n/a' : `${fmt(approvalsMs)} ms`} after the start; ${others.map((o) => `${o.path} ${o.polls} polls p99 ${o.p99} ms max ${o.max} ms`).join(', ')}`,
        );
        // Lines of a failed import were rolled back: their deposits count neither as clean nor as near.
        if (ok) allLines.push(...planLinesOut);
        else for (const deposit of deposits) depositKind.set(deposit.intentId, { kind: 'unpaid', amount: deposit.amount });
        const expected = {
          lines,
          created: lines - counts.duplicate,
          duplicates: counts.duplicate,
          matched: counts.clean + counts.less + counts.more + counts.split + counts.late + counts.other_sender,
          suggested: counts.near,
          unmatched: counts.unknown,
          autoApproved: counts.clean,
        };
        const { lineOutcomes: _listed, ...counted } = answer;
        log(
          `${fmt(lines)} lines: ${seconds.toFixed(2)} s (${((seconds * 1000) / lines).toFixed(2)} ms/line); answer ${JSON.stringify(counted)}`,
        );
        sizes.push({
          lines,
          status,
          ok,
          accountId: account.id,
          deposits: deposits.length,
          createSeconds: round(createSeconds),
          createPerSecond: round(deposits.length / createSeconds, 0),
          importSeconds: round(seconds, 3),
          floorSeconds: round(floor.ms / 1000, 3),
          floorRatio: round(seconds / (floor.ms / 1000), 1),
          approvalsSeconds: approvalsMs === null ? null : round(approvalsMs / 1000, 2),
          statements: PG_LOG ? statements : null,
          others,
          msPerLine: round((seconds * 1000) / lines, 3),
          fileBytes: Buffer.byteLength(csv),
          answer: counted,
          expected,
          kinds: counts,
        });
      }

      // The smallest file again: every line a duplicate, nothing created.
      const smallest = files.get(Math.min(...SIZES)) as { accountId: string; csv: string };
      const again = await importCsv(ledger.url, env.OPS_BOOTSTRAP_TOKEN as string, smallest.accountId, smallest.csv);
      // The answer's counts only: its per-line outcomes would fill the log and the summary with a thousand "known".
      const { lineOutcomes: _outcomes, ...againCounts } = again.answer;
      const reimport = { lines: Math.min(...SIZES), status: again.status, seconds: round(again.seconds, 3), answer: againCounts };
      log(`re-import of the ${fmt(reimport.lines)}-line file: ${reimport.seconds} s, ${JSON.stringify(againCounts)}`);

      // Near references: each near line's transfer must suggest its deposit first.
      const nearLines = allLines.filter((line) => line.kind === 'near');
      const transferIds = await listUnmatched(ops, nearLines.length * 3 + 1_000);
      const nearResults = await pool(nearLines, 16, async (line) => {
        const id = transferIds.get(line.bankTxId);
        if (!id) return { bankTxId: line.bankTxId, ok: false, first: null };
        const detail = await ops.call('GET', `/ops/v1/bank-transfers/${id}`);
        const first = (detail.body?.suggestions as Array<{ intentId: string }> | undefined)?.[0]?.intentId ?? null;
        return { bankTxId: line.bankTxId, ok: first === line.intentId, first };
      });
      const near = {
        lines: nearLines.length,
        checked: nearResults.length,
        correct: nearResults.filter((r) => r.ok).length,
        wrongSamples: nearResults.filter((r) => !r.ok).slice(0, 10),
      };
      log(`near references: ${near.correct} of ${near.checked} suggested first correctly`);

      // Let the worker deliver the imports' approvals before the latency run, so it measures a quiet queue.
      const importApprovals = sizes.reduce((sum, s) => sum + (s.ok ? s.kinds.clean : 0), 0);
      const approvedWebhooks = webhookIndex(receiver);
      const drainDeadline = Date.now() + 180_000;
      while (approvedWebhooks().size < importApprovals && Date.now() < drainDeadline) await sleep(200);
      log(`webhooks after the imports: ${approvedWebhooks().size} intent.approved of ${importApprovals} approvals`);

      // Latency: clean lines through the connector API, one per request, at a steady rate.
      const latencyAccount = await newAccount(ops);
      const latencyCount = LATENCY_RATE * LATENCY_SECONDS;
      const latencyDeposits = await createDeposits(
        planDeposits(latencyCount * 2)
          .filter((d) => d.kind === 'clean')
          .slice(0, latencyCount),
        'lat',
      );
      for (const deposit of latencyDeposits) depositKind.set(deposit.intentId, { kind: 'clean', amount: deposit.amount });
      const latencyLines = planLines('LAT', 0, latencyDeposits, new Date());
      const sentAt = new Map<string, number>();
      let rejected = 0;
      log(`latency: ${latencyLines.length} clean lines at ${LATENCY_RATE}/s through the connector API`);
      const latencyStarted = performance.now();
      const inFlight: Array<Promise<void>> = [];
      for (const [i, line] of latencyLines.entries()) {
        const due = latencyStarted + (i * 1000) / LATENCY_RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        sentAt.set(line.intentId as string, Date.now());
        inFlight.push(
          postLine(ledger.url, env.OPS_BOOTSTRAP_TOKEN as string, latencyAccount.id, line).then((ok) => {
            if (!ok) rejected += 1;
          }),
        );
      }
      await Promise.all(inFlight);
      const sendSeconds = (performance.now() - latencyStarted) / 1000;
      const latencyDeadline = Date.now() + 60_000;
      const arrived = () => [...sentAt.keys()].filter((id) => approvedWebhooks().has(id)).length;
      while (arrived() < sentAt.size && Date.now() < latencyDeadline) await sleep(100);
      const latencies = [...sentAt.entries()]
        .flatMap(([id, at]) => {
          const received = approvedWebhooks().get(id);
          return received === undefined ? [] : [received - at];
        })
        .sort((a, b) => a - b);
      const latency = {
        sent: sentAt.size,
        rejected,
        seconds: round(sendSeconds),
        webhooks: latencies.length,
        missing: sentAt.size - latencies.length,
        ms: {
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          p99: percentile(latencies, 99),
          max: latencies[latencies.length - 1] ?? Number.NaN,
        },
      };
      log(`latency: ${JSON.stringify(latency)}`);

      // Every approved deposit of the site against the truth.
      const approvedList = await listApproved(ops, site.siteId, depositKind.size + 100);
      const wrongSamples: Summary['approvals']['wrongSamples'] = [];
      let wrong = 0;
      for (const intent of approvedList) {
        const truth = depositKind.get(intent.intentId);
        const ok = truth?.kind === 'clean' && BigInt(intent.amount) === truth.amount;
        if (ok) continue;
        wrong += 1;
        if (wrongSamples.length < 10) {
          wrongSamples.push({
            intentId: intent.intentId,
            kind: truth?.kind ?? 'unknown',
            amount: intent.amount,
            requested: String(truth?.amount),
          });
        }
      }
      const cleanIds = new Set([...depositKind.entries()].filter(([, truth]) => truth.kind === 'clean').map(([id]) => id));
      const cleanApproved = approvedList.filter((intent) => cleanIds.has(intent.intentId)).length;
      const approvals = {
        approved: approvedList.length,
        wrong,
        wrongSamples,
        cleanLines: cleanIds.size,
        cleanApproved,
        cleanShare: round(cleanApproved / cleanIds.size, 4),
      };
      log(`approvals: ${JSON.stringify(approvals)}`);

      const big = sizes.find((s) => s.lines === 10_000);
      const huge = sizes.find((s) => s.lines === 100_000);
      const othersP99 = huge ? Math.max(...huge.others.map((o) => o.p99)) : Number.NaN;
      const goals: Summary['goals'] = {
        import10k: {
          goal: '<= 2 s',
          value: big?.importSeconds ?? Number.NaN,
          met: big !== undefined && big.ok && big.importSeconds <= GOALS.importSeconds10k,
        },
        import100k: {
          goal: '<= 20 s',
          value: huge?.importSeconds ?? Number.NaN,
          met: huge !== undefined && huge.ok && huge.importSeconds <= GOALS.importSeconds100k,
        },
        othersP99During100k: {
          goal: `<= ${GOALS.othersP99Ms} ms`,
          value: othersP99,
          met: huge !== undefined && othersP99 <= GOALS.othersP99Ms && huge.others.every((o) => o.failed === 0),
        },
        approvalsAllDone: {
          goal: 'every one',
          value: sizes.filter((r) => r.ok && r.approvalsSeconds !== null).length,
          met: sizes.every((r) => r.ok && r.approvalsSeconds !== null),
        },
        wrongApprovals: { goal: '0', value: wrong, met: wrong === GOALS.wrongApprovals },
        cleanApprovedShare: { goal: '>= 99%', value: approvals.cleanShare, met: approvals.cleanShare >= GOALS.cleanShare },
        nearSuggestedFirst: {
          goal: '100%',
          value: round(near.correct / Math.max(1, near.checked), 4),
          met: near.checked > 0 && near.correct === near.checked,
        },
        latencyP99: { goal: '< 1000 ms', value: latency.ms.p99, met: latency.missing === 0 && latency.ms.p99 < GOALS.latencyP99Ms },
      };
      const summary: Summary = {
        benchmark: 'statements',
        ...runHeader(startedAt, code),
        sizes,
        reimport,
        approvals,
        near,
        latency,
        serviceErrorLogLines: Object.fromEntries(services.map((s) => [s.name, s.errorLines()])),
        goals,
        wallSeconds: round((performance.now() - wallStart) / 1000, 0),
      };
      process.stdout.write(
        `${JSON.stringify(summary, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`,
      );
      if (process.env.BENCH_NO_DOCS !== '1')
        await writeMarkedSection(repoPath('docs', 'benchmarks.md'), 'statements', 'Statements', report(summary));
    },
  );
}

/** Every statement the services send to this run's database is logged with its duration (the bench's own connections too). */
async function setLogStatements(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    // Each statement once, with its duration: what the import spends in PostgreSQL, statement by statement.
    await client.query(`ALTER DATABASE "${name}" SET log_min_duration_statement = 0`);
  } finally {
    await client.end();
  }
}

/** PostgreSQL log's size now: where the statements of what follows start. */
const logMark = (): number => (PG_LOG ? statSync(PG_LOG).size : 0);

/** The statements logged for `database` since `mark` (simple and extended protocol: one `duration: ... statement:` or `execute` line each). */
function statementsSince(mark: number, database: string): number {
  if (!PG_LOG) return Number.NaN;
  const size = statSync(PG_LOG).size;
  const fd = openSync(PG_LOG, 'r');
  try {
    const buffer = Buffer.alloc(size - mark);
    readSync(fd, buffer, 0, buffer.length, mark);
    const pattern = new RegExp(`@${database} LOG:  duration: [0-9.]+ ms  (statement|execute [^:]*):`, 'g');
    return [...buffer.toString('utf8').matchAll(pattern)].length;
  } finally {
    closeSync(fd);
  }
}

async function newAccount(ops: OpsClient): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(randomBytes(4).readUInt32BE() % 1e9);
  const created = await ops.call('POST', '/ops/v1/receiving-accounts', {
    bankName: 'Bench Bankası',
    holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
    iban,
  });
  if (created.status !== 201) throw new Error(`receiving account: ${created.status} ${JSON.stringify(created.body)}`);
  return { id: created.body.id as string, iban };
}

async function importCsv(ledgerUrl: string, token: string, accountId: string, csv: string) {
  const started = performance.now();
  const response = await fetch(`${ledgerUrl}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: csv,
    signal: AbortSignal.timeout(280_000),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  const seconds = (performance.now() - started) / 1000;
  delete answer.statements;
  // A refused import is a figure of the run (reported), not a reason to stop it.
  return { seconds, status: response.status, ok: response.status === 201 || response.status === 200, answer };
}

async function postLine(ledgerUrl: string, token: string, accountId: string, line: PlannedLine): Promise<boolean> {
  const response = await fetch(`${ledgerUrl}/ops/v1/receiving-accounts/${accountId}/lines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-request-id': randomUUID() },
    body: JSON.stringify({
      lines: [
        {
          bankTxId: line.bankTxId,
          direction: 'credit',
          amount: line.amount.toString(),
          currency: 'TRY',
          receivedAt: line.receivedAt.toISOString(),
          senderName: line.senderName,
          senderIban: '',
          description: line.description,
        },
      ],
    }),
    signal: AbortSignal.timeout(30_000),
  }).catch(() => null);
  if (!response) return false;
  const body = (await response.json().catch(() => null)) as { autoApproved?: number } | null;
  return response.status === 201 && body?.autoApproved === 1;
}

/** intentId -> arrival time (ms) of its first `intent.approved` webhook, kept current as deliveries arrive. */
function webhookIndex(receiver: Receiver): () => Map<string, number> {
  const index = new Map<string, number>();
  let seen = 0;
  return () => {
    for (; seen < receiver.deliveries.length; seen += 1) {
      const delivery = receiver.deliveries[seen];
      if (!delivery) continue;
      try {
        const event = JSON.parse(delivery.rawBody.toString('utf8')) as { type?: string; data?: { intentId?: string } };
        const id = event.data?.intentId;
        if (event.type === 'intent.approved' && id && !index.has(id)) index.set(id, delivery.receivedAt);
      } catch {
        // not an event
      }
    }
    return index;
  };
}

/** bankTxId -> bank transfer id of every UNMATCHED transfer (ops list, 100 a page, at most `max`). */
async function listUnmatched(ops: OpsClient, max: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | null = null;
  for (let page = 0; page < Math.ceil(max / 100); page += 1) {
    const query: string = `status=UNMATCHED&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const list = await ops.call('GET', `/ops/v1/bank-transfers?${query}`);
    if (list.status !== 200) throw new Error(`list bank transfers: ${list.status} ${JSON.stringify(list.body)}`);
    for (const item of list.body.data as Array<{ bankTxId: string; bankTransferId: string }>) out.set(item.bankTxId, item.bankTransferId);
    cursor = list.body.nextCursor as string | null;
    if (!cursor) break;
  }
  return out;
}

/** Every APPROVED deposit of the site (ops list, 100 a page, at most `max`). */
async function listApproved(ops: OpsClient, siteId: string, max: number): Promise<Array<{ intentId: string; amount: string }>> {
  const out: Array<{ intentId: string; amount: string }> = [];
  let cursor: string | null = null;
  for (let page = 0; page < Math.ceil(max / 100); page += 1) {
    const query: string = `siteId=${siteId}&status=APPROVED&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const list = await ops.call('GET', `/ops/v1/intents?${query}`);
    if (list.status !== 200) throw new Error(`list intents: ${list.status} ${JSON.stringify(list.body)}`);
    for (const item of list.body.data as Array<{ intentId: string; amount: string }>)
      out.push({ intentId: item.intentId, amount: item.amount });
    cursor = list.body.nextCursor as string | null;
    if (!cursor) break;
  }
  return out;
}

function report(s: Summary): string {
  const g = s.goals;
  const ok = (name: keyof Summary['goals']) => passFail(g[name]?.met ?? false);
  const rows = s.sizes.map(
    (r) =>
      `| ${fmt(r.lines)} | ${fmt(r.fileBytes / 1024)} KiB | ${fmt(r.deposits)} in ${r.createSeconds.toFixed(1)} s | ${r.ok ? '' : `**failed, ${r.status}, after** `}${r.importSeconds.toFixed(2)} s | ${r.ok ? r.msPerLine.toFixed(2) : 'n/a'} | ${r.floorSeconds.toFixed(3)} s | ${r.floorRatio.toFixed(1)} | ${r.approvalsSeconds === null ? 'n/a' : `${r.approvalsSeconds.toFixed(2)} s`} | ${r.ok ? ['created', 'duplicates', 'matched', 'suggested', 'unmatched', 'autoApproved'].map((k) => String(r.answer[k])).join(' / ') : 'nothing imported'} |`,
  );
  const mix = s.sizes[s.sizes.length - 1]?.kinds;
  const big = s.sizes.find((r) => r.lines === 10_000);
  const huge = s.sizes.find((r) => r.lines === 100_000);
  const failed = s.sizes.filter((r) => !r.ok);
  return [
    `Run ${s.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- statements\` (${s.wallSeconds} s wall), commit ${s.commit}${s.dirtyFiles > 0 ? ` with ${s.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${s.cpus} CPUs (${s.cpuModel}), Node ${s.node}.`,
    '',
    `**Method:** the compiled ledger, gateway and webhook worker (\`node services/<name>/dist/main.js\`, NODE_ENV=production, LOG_LEVEL=info) on a fresh database, PostgreSQL, Redis and an HTTPS webhook receiver (its own CA) all on this machine, 127.0.0.1 only. One site with straight-through approval on (maxAmount 10,000.00 TL, requireSenderMatch). For each size its own receiving account and deposits, written first with SQL (bench/lib/seed-statement-deposits.ts: RESERVED deposits with their own references, amounts and user labels; 100,000 deposits through the partner API would take minutes), then one CSV file of two overlapping statements imported with \`POST /ops/v1/receiving-accounts/:id/statements\`; the time is that request, parse to answer: the lines recorded, deduplicated and matched, committed. Straight-through approvals are promised in the lines' transaction as follow-ups; the request carries out a small batch's itself (the answer counts them) and leaves a larger one's to run just after it answers (docs/statements.md, After the lines commit), so their completion is timed apart: from the import's start until no follow-up of the account is pending. The floor, in the same run right after each import: the same lines (parsed and keyed beforehand) inserted by one bare \`INSERT ... SELECT FROM unnest(...) ON CONFLICT DO NOTHING\` from the bench process into a table made \`LIKE bank_transfers INCLUDING ALL\` (bench/lib/statement-floor.ts). While each import runs, \`/healthz\` and \`GET /ops/v1/bank-transfers?status=UNMATCHED&limit=20\` are each polled one request at a time (20 ms apart). Lines per kind${mix ? ` (of ${fmt(s.sizes[s.sizes.length - 1]?.lines ?? 0)})` : ''}: ${mix ? KINDS.map((k) => `${k.replace('_', ' ')} ${fmt(mix[k])}`).join(', ') : 'n/a'}; clean = exact reference, exact amount, the user's name, on time; near = one character changed, swapped, dropped, added or a Turkish letter; less/more = 10 TL off; split = two halves; late = booked after the deposit expired; duplicate = the overlap of the two statements; other sender = another name; unknown = no reference.`,
    '',
    '| Lines | File | Deposits (SQL seed) | Import + match (answer) | ms/line | Floor (bare INSERT) | Kasa / floor | Approvals all done | created / duplicates / matched / suggested / unmatched / approved at the answer |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    ...(failed.length > 0
      ? [
          `**Imports refused:** ${failed.map((r) => `${fmt(r.lines)} lines (HTTP ${r.status} after ${r.importSeconds.toFixed(1)} s)`).join(', ')}. The import runs in one transaction (3 ms per line of room, services/ledger/src/bank-transfers/import-statement.use-case.ts); a refused import imported nothing. Their deposits are left out of the approval and near-reference figures below.`,
          '',
        ]
      : []),
    `Re-import of the ${fmt(s.reimport.lines)}-line file: ${s.reimport.seconds.toFixed(2)} s, created ${String(s.reimport.answer.created)}, duplicates ${String(s.reimport.answer.duplicates)}.`,
    '',
    `**Straight through:** ${fmt(s.approvals.approved)} deposits APPROVED in all (ops list), **${s.approvals.wrong} not clean or not for their amount**; ${fmt(s.approvals.cleanApproved)} of ${fmt(s.approvals.cleanLines)} clean deposits approved (${(s.approvals.cleanShare * 100).toFixed(2)}%).`,
    `**Near references:** ${fmt(s.near.correct)} of ${fmt(s.near.checked)} near lines (all of the imported ones) suggest their deposit first.`,
    `**Connector to webhook:** ${fmt(s.latency.sent)} clean lines, one per \`POST .../lines\` at ${LATENCY_RATE}/s (${s.latency.seconds} s); time from sending the line to the receiver getting the deposit's \`intent.approved\`: p50 ${fmt(s.latency.ms.p50)} ms, p95 ${fmt(s.latency.ms.p95)} ms, p99 ${fmt(s.latency.ms.p99)} ms, max ${fmt(s.latency.ms.max)} ms; ${s.latency.missing} missing, ${s.latency.rejected} lines not approved at once.`,
    '',
    '| Goal | Figure | |',
    '|---|---:|---|',
    `| 10,000-line import + match <= 2 s | ${big ? `${big.ok ? '' : `failed (${big.status}) after `}${big.importSeconds.toFixed(2)} s` : 'n/a'} | ${ok('import10k')} |`,
    `| 100,000-line import + match <= 20 s | ${huge ? `${huge.ok ? '' : `failed (${huge.status}) after `}${huge.importSeconds.toFixed(2)} s` : 'n/a'} | ${ok('import100k')} |`,
    `| other requests' p99 during the 100,000-line import <= ${GOALS.othersP99Ms} ms | ${huge ? huge.others.map((o) => `${o.path.split('?')[0]} ${fmt(o.p99)} ms (max ${fmt(o.max)})`).join(', ') : 'n/a'} | ${ok('othersP99During100k')} |`,
    `| Kasa / floor (10,000 lines; reported, no goal) | ${big ? big.floorRatio.toFixed(1) : 'n/a'} | |`,
    `| every straight-through approval done after the answer | ${s.sizes.map((r) => (r.approvalsSeconds === null ? 'n/a' : `${r.approvalsSeconds.toFixed(2)} s`)).join(', ')} | ${ok('approvalsAllDone')} |`,
    `| wrong auto-approvals = 0 | ${s.approvals.wrong} | ${ok('wrongApprovals')} |`,
    `| clean lines approved straight through >= 99% | ${(s.approvals.cleanShare * 100).toFixed(2)}% | ${ok('cleanApprovedShare')} |`,
    `| near references suggested first = 100% | ${((g.nearSuggestedFirst?.value ?? 0) * 100).toFixed(2)}% | ${ok('nearSuggestedFirst')} |`,
    `| line to webhook p99 < 1 s | ${fmt(s.latency.ms.p99)} ms | ${ok('latencyP99')} |`,
  ].join('\n');
}

await main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
