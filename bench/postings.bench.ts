/**
 * Postings benchmark: how many approvals a second an operator's approve requests get through the compiled ledger
 * (`node services/ledger/dist/main.js`, NODE_ENV=production, fresh database), against a floor measured in the same
 * run: a bare SQL double-entry posting loop over a pg Pool of the ledger's own pool size, each iteration one
 * transaction inserting exactly the journal rows an approval writes and nothing else.
 *
 *   npx tsx bench/postings.bench.ts          (npm run bench -- postings)
 *
 * For each round (BENCH_ROUNDS, default 2), kind (deposit, withdrawal) and concurrency (BENCH_CONCURRENCY, default
 * 1,4,16,64), a Kasa run and a floor run, alternating which goes first from round to round:
 * - deposit: `POST /ops/v1/intents/:id/approve` of deposits paid and waiting for review (below the step-up and
 *   four-eyes thresholds, so one operator suffices); posts bank_clearing / site_available.
 * - withdrawal: `POST /ops/v1/withdrawals/:id/approve` of withdrawals waiting for approval (below the four-eyes
 *   threshold): the step that posts its journal entry (site_available / site_reserved, refused past the balance).
 * - floor: BEGIN; one two-row INSERT into journal_entries; one statement for the two site_balances rows (the
 *   withdrawal's conditional on the available balance, as the ledger's); COMMIT.
 * Each Kasa run approves BENCH_APPROVALS records (400), each floor run posts BENCH_FLOOR_FACTOR (8) times as many; either
 * stops starting new ones after BENCH_RUN_SECONDS (30).
 *
 * Environment: BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_ROUNDS, BENCH_CONCURRENCY, BENCH_APPROVALS, BENCH_FLOOR_FACTOR,
 * BENCH_RUN_SECONDS, BENCH_WARMUP (100 approvals of each kind first, not measured), BENCH_KINDS (deposit,withdrawal),
 * BENCH_CPU_PROF_DIR (--cpu-prof a ledger started after the setup there). Prints a JSON summary; rewrites only the postings section of docs/benchmarks.md. Exits 0 when
 * the run completed (a missed goal is reported, not an error), 1 when it could not run.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { expectStatus, Scenario } from '../packages/testkit/src/index.js';
import { PRIMARY_POOL_MAX } from '../services/ledger/src/ledger-deps.js';
import { benchRun } from './lib/bench-run.js';
import { cloneWithdrawals, clonePaidDeposits } from './lib/clone-records.js';
import { clearSiteJournal } from './lib/clear-site-journal.js';
import { diff, snapshot } from './lib/cpu.js';
import { writeMarkedSection } from './lib/doc-section.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';
import { repoPath } from './lib/processes.js';
import { startCompiled, waitReady, type CompiledHandle } from './lib/production-services.js';
import { fmt, passFail, percentile } from './lib/report.js';

const whole = (name: string, fallback: number, min: number, max: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name}: a whole number from ${min} to ${max}`);
  return value;
};
const ROUNDS = whole('BENCH_ROUNDS', 2, 1, 5);
const APPROVALS = whole('BENCH_APPROVALS', 400, 20, 20_000);
/** The floor is many times faster: its runs post this many times more, to last about as long as Kasa's. */
const FLOOR_FACTOR = whole('BENCH_FLOOR_FACTOR', 8, 1, 100);
const RUN_SECONDS = whole('BENCH_RUN_SECONDS', 30, 1, 600);
const WARMUP = whole('BENCH_WARMUP', 100, 0, 5_000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '1,4,16,64').split(',').map((part) => {
  const value = Number(part.trim());
  if (!Number.isInteger(value) || value < 1 || value > 256)
    throw new Error('BENCH_CONCURRENCY: whole numbers from 1 to 256, comma-separated');
  return value;
});
const KINDS = (process.env.BENCH_KINDS ?? 'deposit,withdrawal').split(',').map((part) => {
  const kind = part.trim();
  if (kind !== 'deposit' && kind !== 'withdrawal') throw new Error('BENCH_KINDS: deposit and/or withdrawal, comma-separated');
  return kind as Kind;
});
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR || undefined;
/** Kuruş per deposit and withdrawal: far below STEP_UP_ABOVE_KURUS and DUAL_APPROVAL_ABOVE_KURUS (one operator suffices). */
const DEPOSIT_KURUS = 10_000;
const WITHDRAWAL_KURUS = 1_000;
const FUND_CHUNK_KURUS = 4_000_000;
const WATCHDOG_MS = 30 * 60_000;
const IDLE_MS = 3_000;
/** The issue's goal: approvals at no less than this share of the bare posting loop's rate. */
const GOAL_RATIO = 0.6;

type Kind = 'deposit' | 'withdrawal';
/** `request`: an authenticated ops request that changes nothing (`GET /ops/v1/me`), what any approval pays before its work. */
type Target = 'kasa' | 'floor' | 'request';

const log = (message: string) => process.stderr.write(`[postings ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Runs `task` over `0..count-1` with at most `concurrency` at a time, starting none after `deadline` (ms epoch). */
async function pool<R>(count: number, concurrency: number, task: (index: number) => Promise<R>, deadline = Infinity): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count && Date.now() < deadline) {
        const index = next;
        next += 1;
        results[index] = await task(index);
      }
    }),
  );
  return results.filter((result) => result !== undefined);
}

interface Run {
  round: number;
  kind: Kind;
  target: Target;
  concurrency: number;
  /** Approvals (or floor transactions) that succeeded, and the others (non-200 answers, refused postings). */
  ok: number;
  failed: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU ms per successful approval from /proc: the ledger, PostgreSQL (bench database backends + background), this process. */
  cpuMs: { ledger: number; postgres: number; loadgen: number };
  machineBusy: number;
}

interface Summary extends RunHeader {
  benchmark: 'postings';
  settings: {
    rounds: number;
    approvals: number;
    floorFactor: number;
    runSeconds: number;
    warmup: number;
    kinds: Kind[];
    concurrency: number[];
    floorPoolSize: number;
  };
  runs: Run[];
  /** CPU ms per second of the ledger and PostgreSQL with no request in flight (the ledger's pollers), over IDLE_MS. */
  idle: { ledgerMsPerSecond: number; postgresMsPerSecond: number };
  setup: { deposits: number; withdrawals: number; seconds: number };
  firstFailures: string[];
  journalCheck: { ok: boolean; problems: number; kinds: Record<string, number> };
  load: { start: number[]; end: number[] };
  serviceErrorLogLines: number;
  wallSeconds: number;
}

async function main(): Promise<void> {
  const wallStart = performance.now();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const startedAt = new Date().toISOString();
  const code = gitState(repoPath());
  let floorPool: pg.Pool | undefined;
  let profiled: CompiledHandle | undefined;
  await benchRun(
    {
      database: 'kasa_bench_postings',
      watchdogMs: WATCHDOG_MS,
      log,
      cleanup: async () => {
        await profiled?.stop().catch((error: unknown) => log(`stop the profiled ledger: ${String(error)}`));
        await floorPool?.end().catch(() => undefined);
      },
    },
    async ({ env, databaseUrl, start }) => {
      const databaseName = new URL(databaseUrl).pathname.slice(1);
      let ledger = await start('ledger');
      const admin = new Scenario({
        ledgerUrl: () => ledger.url,
        opsToken: env.OPS_BOOTSTRAP_TOKEN as string,
        internalToken: env.INTERNAL_TOKEN as string,
      });
      log(`ledger ${ledger.url}, database ${databaseName}, floor pool ${PRIMARY_POOL_MAX}`);
      floorPool = new pg.Pool({ connectionString: databaseUrl, max: PRIMARY_POOL_MAX });
      const sql = floorPool;

      // An operator of the REVIEWER role, logged in: the approvals go through its session as the console's would.
      const reviewer = await admin.createOperator('REVIEWER');
      const operator = new Scenario({
        ledgerUrl: () => ledger.url,
        opsToken: await admin.login(reviewer),
        internalToken: env.INTERNAL_TOKEN as string,
      });
      await admin.createReceivingAccount();
      const site = await admin.createSite();
      const floorSite = await admin.createSite();

      const setupStarted = performance.now();
      const perKind = (kind: Kind) => (KINDS.includes(kind) ? APPROVALS * CONCURRENCY.length * ROUNDS + WARMUP : 0);
      // The withdrawals are paid from the deposits' site, funded apart from the deposits under review.
      const withdrawalsNeeded = perKind('withdrawal') * WITHDRAWAL_KURUS;
      for (let funded = 0; funded < withdrawalsNeeded; funded += FUND_CHUNK_KURUS) await admin.fund(site.siteId, FUND_CHUNK_KURUS);
      // One deposit paid and one withdrawal made through the API, then cloned in bulk (bench/lib/clone-records.ts).
      const template = await admin.createDeposit(site.siteId, DEPOSIT_KURUS);
      expectStatus(await admin.transfer(template.referenceNo, DEPOSIT_KURUS), 201, 'transfer');
      const templateWithdrawal = await admin.createWithdrawal(site.siteId, WITHDRAWAL_KURUS);
      const deposits = await clonePaidDeposits(sql, template.intentId, perKind('deposit'));
      const withdrawals = await cloneWithdrawals(sql, templateWithdrawal.withdrawalId, perKind('withdrawal'));
      const setup = {
        deposits: deposits.length,
        withdrawals: withdrawals.length,
        seconds: round((performance.now() - setupStarted) / 1000, 1),
      };
      log(`setup: ${JSON.stringify(setup)}`);
      if (CPU_PROF_DIR) {
        // A ledger of its own for the measured part, so that its profile holds the approvals and not the setup.
        await ledger.stop();
        profiled = await startCompiled('ledger', env, ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`]);
        await waitReady(profiled.url);
        ledger = profiled;
      }
      const queue: Record<Kind, string[]> = { deposit: deposits, withdrawal: withdrawals };
      const take = (kind: Kind, n: number) => queue[kind].splice(0, n);
      const approvePath = (kind: Kind, id: string) => (kind === 'deposit' ? `/intents/${id}/approve` : `/withdrawals/${id}/approve`);
      const firstFailures: string[] = [];
      const failure = (what: string) => {
        if (firstFailures.length < 10) firstFailures.push(what.slice(0, 500));
      };

      /** One approval through the ops API: its latency in ms, or null when it did not answer 200. */
      /** The reference request: the operator's session checked and answered, nothing read or written besides. */
      const request = async (): Promise<number | null> => {
        const sent = performance.now();
        const answer = await operator.ops('GET', '/me');
        if (answer.status === 200) return performance.now() - sent;
        failure(`GET /me: ${answer.status} ${JSON.stringify(answer.body)}`);
        return null;
      };

      const approve = async (kind: Kind, id: string): Promise<number | null> => {
        const sent = performance.now();
        const answer = await operator.ops('POST', approvePath(kind, id), {});
        if (answer.status === 200) return performance.now() - sent;
        failure(`${kind} ${id}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return null;
      };

      /** The floor: one transaction writing the journal rows of one approval of `kind`; its latency, or null if refused. */
      const post = async (kind: Kind): Promise<number | null> => {
        const sent = performance.now();
        const client = await sql.connect();
        try {
          await client.query('BEGIN');
          const amount = kind === 'deposit' ? DEPOSIT_KURUS : WITHDRAWAL_KURUS;
          const [debit, credit] = kind === 'deposit' ? ['bank_clearing', 'site_available'] : ['site_available', 'site_reserved'];
          await client.query(
            `INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id, created_at)
             VALUES ($1, $3, $4, $5, $7, $8, $9, now()), ($2, $3, $4, $6, -$7::bigint, $8, $9, now())`,
            [
              randomUUID(),
              randomUUID(),
              randomUUID(),
              floorSite.siteId,
              debit,
              credit,
              amount,
              kind === 'deposit' ? 'deposit_intent' : 'withdrawal',
              randomUUID(),
            ],
          );
          const balances =
            kind === 'deposit'
              ? await client.query(
                  `INSERT INTO site_balances (site_id, account, balance, updated_at)
                   VALUES ($1, 'bank_clearing', $2, now()), ($1, 'site_available', -$2::bigint, now())
                   ON CONFLICT (site_id, account) DO UPDATE SET balance = site_balances.balance + EXCLUDED.balance, updated_at = now()`,
                  [floorSite.siteId, amount],
                )
              : await client.query(
                  `WITH available AS (
                     UPDATE site_balances SET balance = balance + $2, updated_at = now()
                     WHERE site_id = $1 AND account = 'site_available' AND balance + $2 <= 0 RETURNING site_id)
                   INSERT INTO site_balances (site_id, account, balance, updated_at)
                   SELECT site_id, 'site_reserved', -$2::bigint, now() FROM available
                   ON CONFLICT (site_id, account) DO UPDATE SET balance = site_balances.balance + EXCLUDED.balance, updated_at = now()`,
                  [floorSite.siteId, amount],
                );
          if (kind === 'withdrawal' && balances.rowCount !== 1) {
            await client.query('ROLLBACK');
            failure('floor withdrawal refused: the floor site lacks the balance');
            return null;
          }
          await client.query('COMMIT');
          return performance.now() - sent;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      };
      /** The floor's rows go once its run is measured: the journal check after the run must see Kasa's alone. */
      const clearFloor = async (again = true) => {
        await clearSiteJournal(sql, floorSite.siteId);
        await sql.query('DELETE FROM site_balances WHERE site_id = $1', [floorSite.siteId]);
        if (!again) return;
        // What the withdrawals' floor reserves from: far more than a run takes.
        await sql.query(
          `INSERT INTO site_balances (site_id, account, balance, updated_at) VALUES ($1, 'site_available', -1000000000000000, now())`,
          [floorSite.siteId],
        );
      };

      const measure = async (roundNo: number, kind: Kind, target: Target, concurrency: number): Promise<Run> => {
        const ids = target === 'kasa' ? take(kind, APPROVALS) : [];
        const before = snapshot({ children: { ledger: ledger.pid }, databaseName });
        const started = performance.now();
        const latencies = await pool(
          target === 'kasa' ? ids.length : target === 'request' ? APPROVALS * 2 : APPROVALS * FLOOR_FACTOR,
          concurrency,
          (i) => (target === 'kasa' ? approve(kind, ids[i] as string) : target === 'request' ? request() : post(kind)),
          Date.now() + RUN_SECONDS * 1000,
        );
        const seconds = (performance.now() - started) / 1000;
        const cpu = diff(before, snapshot({ children: { ledger: ledger.pid }, databaseName }));
        const done = latencies.filter((ms): ms is number => ms !== null).sort((a, b) => a - b);
        const per = (ms: number | undefined) => round((ms ?? 0) / Math.max(1, done.length), 3);
        if (target === 'floor') await clearFloor();
        else if (ids.length > latencies.length) queue[kind].push(...ids.slice(latencies.length)); // not started: used later
        const run: Run = {
          round: roundNo,
          kind,
          target,
          concurrency,
          ok: done.length,
          failed: latencies.length - done.length,
          seconds: round(seconds, 2),
          perSecond: round(done.length / seconds),
          p50Ms: round(percentile(done, 50), 1),
          p99Ms: round(percentile(done, 99), 1),
          cpuMs: { ledger: per(cpu.ms.ledger), postgres: per(cpu.ms.postgres), loadgen: per(cpu.ms.loadgen) },
          machineBusy: round(cpu.machineBusy, 2),
        };
        log(`round ${roundNo} ${kind} ${target} x${concurrency}: ${JSON.stringify(run)}`);
        return run;
      };

      await clearFloor();
      if (WARMUP > 0) {
        // Not measured: the ledger's JIT and both pools' connections warmed up on both paths.
        for (const kind of KINDS) {
          const ids = take(kind, WARMUP);
          await pool(ids.length, 4, (i) => approve(kind, ids[i] as string));
          await pool(WARMUP, 4, () => post(kind));
        }
        await clearFloor();
        firstFailures.length = 0;
      }

      // The ledger's own background work (the follow-up, outbox and expiry pollers) while nobody calls it.
      const idleBefore = snapshot({ children: { ledger: ledger.pid }, databaseName });
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const idleCpu = diff(idleBefore, snapshot({ children: { ledger: ledger.pid }, databaseName }));
      const idle = {
        ledgerMsPerSecond: round(((idleCpu.ms.ledger ?? 0) * 1000) / idleCpu.wallMs, 1),
        postgresMsPerSecond: round(((idleCpu.ms.postgres ?? 0) * 1000) / idleCpu.wallMs, 1),
      };
      log(`idle: ${JSON.stringify(idle)}`);

      const runs: Run[] = [];
      for (let r = 1; r <= ROUNDS; r += 1) {
        const order: Target[] = r % 2 === 1 ? ['kasa', 'floor'] : ['floor', 'kasa'];
        for (const kind of KINDS)
          for (const concurrency of CONCURRENCY) for (const target of order) runs.push(await measure(r, kind, target, concurrency));
        // Kind-free: listed under the first kind measured.
        for (const concurrency of CONCURRENCY) runs.push(await measure(r, KINDS[0] as Kind, 'request', concurrency));
      }

      await clearFloor(false);
      const check = await admin.ops('GET', '/journal/check');
      const problems = (check.body as { problems?: Array<{ kind: string; detail: unknown }> }).problems ?? [];
      const kinds: Record<string, number> = {};
      for (const problem of problems) kinds[problem.kind] = (kinds[problem.kind] ?? 0) + 1;
      const journalCheck = { ok: check.status === 200 && (check.body as { ok?: boolean }).ok === true, problems: problems.length, kinds };
      if (problems.length > 0) log(`journal problems: ${JSON.stringify(problems.slice(0, 5))}`);
      log(`journal check: ${JSON.stringify(journalCheck)}`);
      const summary: Summary = {
        benchmark: 'postings',
        ...runHeader(startedAt, code),
        settings: {
          rounds: ROUNDS,
          approvals: APPROVALS,
          floorFactor: FLOOR_FACTOR,
          runSeconds: RUN_SECONDS,
          warmup: WARMUP,
          kinds: KINDS,
          concurrency: CONCURRENCY,
          floorPoolSize: PRIMARY_POOL_MAX,
        },
        runs,
        idle,
        setup,
        firstFailures,
        journalCheck,
        load: { start: loadAtStart, end: loadavg().map((l) => round(l, 2)) },
        serviceErrorLogLines: ledger.errorLines(),
        wallSeconds: round((performance.now() - wallStart) / 1000),
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      if (process.env.BENCH_NO_DOCS !== '1')
        await writeMarkedSection(repoPath('docs', 'benchmarks.md'), 'postings', 'Postings', report(summary));
      else log(`BENCH_NO_DOCS=1: the section, not written:\n${report(summary)}`);
    },
  );
}

const mean = (values: number[]) => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);
const pct = (ratio: number) => (Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : 'n/a');

function report(s: Summary): string {
  const runsOf = (kind: Kind, target: Target, concurrency: number) =>
    s.runs.filter((r) => r.kind === kind && r.target === target && r.concurrency === concurrency);
  const rows = s.settings.kinds.flatMap((kind) =>
    s.settings.concurrency.map((concurrency) => {
      const kasa = runsOf(kind, 'kasa', concurrency);
      const floor = runsOf(kind, 'floor', concurrency);
      const perRound = kasa.map((k) => k.perSecond / (floor.find((f) => f.round === k.round)?.perSecond ?? Number.NaN));
      const kasaRate = mean(kasa.map((r) => r.perSecond));
      const floorRate = mean(floor.map((r) => r.perSecond));
      return { kind, concurrency, kasa, floor, kasaRate, floorRate, ratio: kasaRate / floorRate, perRound };
    }),
  );
  const cpu = (runs: Run[], pick: (r: Run) => number) => fmt(mean(runs.map(pick)), 3);
  const failed = s.runs.reduce((sum, r) => sum + r.failed, 0);
  const busy = (s.load.start[0] ?? 0) > s.cpus || (s.load.end[0] ?? 0) > s.cpus;
  return [
    `Run ${s.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- postings\` (${s.wallSeconds} s wall, of which ${fmt(s.setup.seconds)} s making ${fmt(s.setup.deposits)} deposits and ${fmt(s.setup.withdrawals)} withdrawals), commit ${s.commit}${s.dirtyFiles > 0 ? ` with ${s.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${s.cpus} CPUs (${s.cpuModel}), Node ${s.node}; load average (1 min) ${s.load.start[0]} at the start and ${s.load.end[0]} at the end${busy ? ': **the machine was busy with other work**, so the absolute rates are low; Kasa and its floor ran one after the other in the same run and compare by ratio' : ''}.`,
    '',
    `**Method:** the compiled ledger (\`node services/ledger/dist/main.js\`, NODE_ENV=production, LOG_LEVEL=info) on a fresh database, PostgreSQL on this machine. Made first, not timed: one deposit of ${fmt(DEPOSIT_KURUS)} kuruş created through the internal API (as the gateway calls it) and paid by a hand-recorded transfer, so it waits for review, and one withdrawal of ${fmt(WITHDRAWAL_KURUS)} kuruş waiting for approval, from the same site, funded by approved deposits; then copied by SQL (bench/lib/clone-records.ts), each copy with its own id, reference, keys and (for a deposit) transfer. Both amounts are below the step-up and four-eyes thresholds, so one operator suffices. **Kasa:** a REVIEWER operator's session approves them through the ops API (\`POST /ops/v1/intents/:id/approve\`, \`POST /ops/v1/withdrawals/:id/approve\`, the withdrawal step that posts its journal entry), ${s.settings.approvals} a run or ${s.settings.runSeconds} s, whichever ends first, after ${s.settings.warmup} unmeasured approvals of each kind. **Floor:** a bare SQL loop in the bench process over a pg Pool of ${s.settings.floorPoolSize} connections (the ledger's primary pool, \`PRIMARY_POOL_MAX\`), at the same concurrency, ${fmt(s.settings.approvals * s.settings.floorFactor)} postings a run, each iteration one transaction that inserts exactly the journal rows an approval writes and nothing else: BEGIN; one two-row INSERT into \`journal_entries\` (the same columns, triggers and indexes); one statement for the site's two \`site_balances\` rows (the withdrawal's conditional on the available balance, as the ledger's); COMMIT. It has no HTTP, no authentication, no record lock, read or update, no audit entry and no outbox event: it is the floor of the journal's writes, not of an approval. Its rows are on a site of their own and are deleted after each floor run, so the journal check sees Kasa's alone. Each concurrency runs Kasa then the floor in odd rounds and the floor then Kasa in even ones. CPU ms per approval from /proc over the run (PostgreSQL: the bench database's backends and the server's background processes; the floor's client is the bench process). With no request in flight the ledger's pollers cost ${fmt(s.idle.ledgerMsPerSecond, 1)} ms of ledger CPU and ${fmt(s.idle.postgresMsPerSecond, 1)} ms of PostgreSQL CPU a second, included in Kasa's figures.`,
    '',
    '| Kind | Concurrency | Kasa approvals/s | Floor postings/s | Kasa / floor (rounds) | Kasa p50 / p99 ms | Floor p50 / p99 ms | CPU ms per approval: ledger / PostgreSQL | Floor CPU ms: client / PostgreSQL |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.kind} | ${row.concurrency} | ${fmt(row.kasaRate)} | ${fmt(row.floorRate)} | **${pct(row.ratio)}** (${row.perRound.map(pct).join(', ')}) | ${fmt(mean(row.kasa.map((r) => r.p50Ms)), 1)} / ${fmt(mean(row.kasa.map((r) => r.p99Ms)), 1)} | ${fmt(mean(row.floor.map((r) => r.p50Ms)), 1)} / ${fmt(mean(row.floor.map((r) => r.p99Ms)), 1)} | ${cpu(row.kasa, (r) => r.cpuMs.ledger)} / ${cpu(row.kasa, (r) => r.cpuMs.postgres)} | ${cpu(row.floor, (r) => r.cpuMs.loadgen)} / ${cpu(row.floor, (r) => r.cpuMs.postgres)} |`,
    ),
    '',
    `**Reference:** an authenticated ops request that reads and writes nothing of its own (\`GET /ops/v1/me\` with the same session, ${fmt(s.settings.approvals * 2)} a run, after each round's approvals): what every approval pays before its own work (HTTP, the session's lookup, the access log). The floor's CPU per posting (client and PostgreSQL) over this request's (ledger and PostgreSQL) is the most an approval could reach of the floor's rate on a machine whose CPUs are the limit, if approving itself cost nothing.`,
    '',
    '| Concurrency | Requests/s | p50 / p99 ms | CPU ms per request: ledger / PostgreSQL | Floor CPU / request CPU: deposit, withdrawal |',
    '|---:|---:|---:|---:|---:|',
    ...s.settings.concurrency.map((concurrency) => {
      const requests = s.runs.filter((r) => r.target === 'request' && r.concurrency === concurrency);
      const requestCpu = mean(requests.map((r) => r.cpuMs.ledger + r.cpuMs.postgres));
      const bound = s.settings.kinds.map((kind) =>
        pct(mean(runsOf(kind, 'floor', concurrency).map((r) => r.cpuMs.loadgen + r.cpuMs.postgres)) / requestCpu),
      );
      return `| ${concurrency} | ${fmt(mean(requests.map((r) => r.perSecond)))} | ${fmt(mean(requests.map((r) => r.p50Ms)), 1)} / ${fmt(mean(requests.map((r) => r.p99Ms)), 1)} | ${cpu(requests, (r) => r.cpuMs.ledger)} / ${cpu(requests, (r) => r.cpuMs.postgres)} | ${bound.join(', ')} |`;
    }),
    '',
    `Failed requests or refused postings: ${failed}${s.firstFailures.length > 0 ? ` (first: ${s.firstFailures[0]})` : ''}; ${s.serviceErrorLogLines} error log lines from the ledger. Journal check after the run (\`GET /ops/v1/journal/check\`): ${s.journalCheck.ok ? 'clean' : `**${s.journalCheck.problems} problems**`}.`,
    '',
    `| Goal: approvals/s >= ${pct(GOAL_RATIO)} of the bare posting loop's (mean of ${s.settings.rounds} alternating rounds) | Measured | Result |`,
    '|---|---:|---|',
    ...rows.map(
      (row) => `| ${row.kind} approvals, concurrency ${row.concurrency} | ${pct(row.ratio)} | ${passFail(row.ratio >= GOAL_RATIO)} |`,
    ),
    `| the journal check clean after the run | ${s.journalCheck.ok ? 'clean' : `${s.journalCheck.problems} problems`} | ${passFail(s.journalCheck.ok)} |`,
    `| every approval answered 200 | ${failed} failed | ${passFail(failed === 0)} |`,
  ].join('\n');
}

await main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
