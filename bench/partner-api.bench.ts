/**
 * Partner-API benchmark: Kasa (the compiled gateway + ledger, `node services/<name>/dist/main.js`, logs on at
 * the production level) against the two-hop floor and a bare baseline, with autocannon on 127.0.0.1.
 *
 *   npm run bench -- partner-api        (or: npx tsx bench/partner-api.bench.ts)
 *
 * Three targets, measured in alternating rounds so that other load on the machine falls on all three alike:
 *   kasa      gateway (auth, rate limit, idempotency, validation, metrics, access log) -> undici -> ledger
 *   relay     a bare Express 5 relay (`express.json()`, one undici Pool of 50 keep-alive connections, the
 *             answer passed back: bench/lib/relay-app.ts) in front of the baseline: the two-hop floor
 *   baseline  a bare Express 5 + pg app, one SQL statement per request (bench/lib/baseline-app.ts)
 *
 * Scenarios: create-deposit (POST /api/v1/external/deposits, a fresh Idempotency-Key per request, vs one
 * INSERT) and lookup (GET /api/v1/external/intents/:id over existing ids, vs one SELECT by id). Each is
 * measured saturated (autocannon, 50 connections, closed loop: throughput), then at a steady 50% of Kasa's
 * saturated rate (bench/lib/steady-load.ts, open loop: p99 under a load the machine carries).
 *
 * Targets: Kasa >= 75% of the relay's throughput on create and >= 90% on lookup, and Kasa's steady p99 <= 2x the
 * relay's p99 at the same rate.
 *
 * Environment (all optional): BENCH_LOG_LEVEL (default info, the production level), BENCH_ROUNDS (default 2),
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 8, first round; V8 needs a few thousand requests
 * before the create path is optimised), BENCH_ROUND_WARMUP (s, default 3, later rounds), BENCH_CONNECTIONS
 * (default 50), BENCH_STEADY_DURATION / BENCH_STEADY_WARMUP (s, default 10 and 2), BENCH_SCENARIOS
 * (comma-separated, default both; the lookup run alone first makes its 10,000 intents through Kasa's create),
 * BENCH_MODE (compiled | child-process | in-process; default compiled),
 * BENCH_CPU_PROF_DIR (--cpu-prof the server children there), BENCH_NODE_ARGS (more Node flags for them), BENCH_KEEP_LOGS=1 (keep the services' log files), BENCH_NO_DOCS=1 (leave docs/benchmarks.md
 * alone), BENCH_STRICT=1 (exit 3 when a target is missed).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitState, nproc } from './lib/machine.js';
import { createTestEnvironment, type TestEnvironment } from '../packages/testkit/src/index.js';
import { machineBusyOver, type CpuTargets } from './lib/cpu.js';
import { analyzeDeposits, explainLookup, type PlanSummary } from './lib/explain.js';
import { runLoad, type LoadResult, type LoadSpec } from './lib/load.js';
import { runSteady, type SteadyRequest, type SteadyResult } from './lib/steady-load.js';
import { opsClient } from './lib/ops.js';
import { repoPath, startService, stopAllChildren, type Mode, type ServiceHandle } from './lib/processes.js';
import { END_MARKER, fmt, passFail, START_MARKER, writeSection } from './lib/report.js';
import { guardRun } from './lib/run-guard.js';

const num = (name: string, fallback: number, min: number, max: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
  return value;
};

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'info';
if (!(LOG_LEVELS as readonly string[]).includes(LOG_LEVEL)) throw new Error(`BENCH_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
const ROUNDS = num('BENCH_ROUNDS', 2, 1, 10);
const DURATION = num('BENCH_DURATION', 10, 1, 60);
const WARMUP = num('BENCH_WARMUP', 8, 0, 30);
const ROUND_WARMUP = num('BENCH_ROUND_WARMUP', 3, 0, 30);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50, 1, 500);
const STEADY_DURATION = num('BENCH_STEADY_DURATION', 10, 1, 60);
const STEADY_WARMUP = num('BENCH_STEADY_WARMUP', 2, 0, 30);
const MODE: Mode =
  process.env.BENCH_MODE === 'in-process' ? 'in-process' : process.env.BENCH_MODE === 'child-process' ? 'child-process' : 'compiled';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR || undefined;
const SCENARIOS = ['create-deposit', 'lookup'] as const;
type Scenario = (typeof SCENARIOS)[number];
const WANTED: Scenario[] = process.env.BENCH_SCENARIOS
  ? SCENARIOS.filter((scenario) => (process.env.BENCH_SCENARIOS as string).split(',').includes(scenario))
  : [...SCENARIOS];
const TARGET_NAMES = ['kasa', 'relay', 'baseline'] as const;
type Target = (typeof TARGET_NAMES)[number];
const WANTED_RATE_LIMIT = 10_000_000;
/** The whole run is abandoned (and cleaned up) past this. */
const WATCHDOG_MS = 12 * 60_000;
/** The steady (open-loop) point: this fraction of Kasa's saturated throughput in the same scenario. */
const STEADY_FRACTION = 0.5;
/** Kasa's throughput as a share of the two-hop relay's, per scenario, and its steady p99 as a multiple of the relay's. */
const TARGETS = { throughputOfRelay: { 'create-deposit': 0.75, lookup: 0.9 }, steadyP99OfRelay: 2 } as const;

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Round {
  scenario: Scenario;
  round: number;
  order: Target[];
  results: Record<Target, LoadResult>;
}

interface SteadyPoint {
  scenario: Scenario;
  ratePerSecond: number;
  order: Target[];
  results: Record<Target, SteadyResult>;
}

/** Three targets, each scenario and round starting with a different one, so none always runs first or last. */
const rotation = (index: number): Target[] => TARGET_NAMES.map((_, i) => TARGET_NAMES[(i + index) % 3] as Target);

async function main(): Promise<void> {
  const started = Date.now();
  const code = gitState(repoPath());
  const logDir = mkdtempSync(join(tmpdir(), 'kasa-bench-logs-'));
  const logFiles = { gateway: join(logDir, 'gateway.log'), ledger: join(logDir, 'ledger.log') };
  let env: TestEnvironment | undefined;
  const services: ServiceHandle[] = [];
  const { cleanup, watchdog } = guardRun({
    log,
    watchdogMs: WATCHDOG_MS,
    cleanup: async () => {
      for (const service of services.reverse())
        await service.stop().catch((error: unknown) => log(`stop ${service.role}: ${String(error)}`));
      await stopAllChildren();
      if (env) await env.cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
      if (process.env.BENCH_KEEP_LOGS === '1') log(`service logs kept in ${logDir}`);
      else rmSync(logDir, { recursive: true, force: true });
    },
  });

  try {
    const idleBusy = await machineBusyOver(2_000);
    const loadAverage = (await import('node:os')).loadavg().map((value) => round(value, 2));
    log(`machine busy before the bench: ${Math.round(idleBusy * 100)}% of all cores, load average ${loadAverage.join(' ')}`);
    env = await createTestEnvironment({ LOG_LEVEL });
    const databaseName = new URL(env.databaseUrl).pathname.slice(1);
    log(`database ${databaseName}, redis prefix ${env.redisPrefix}, mode ${MODE}, LOG_LEVEL=${LOG_LEVEL}, logs in ${logDir}`);

    const ledger = await startService('ledger', env.config, MODE, CPU_PROF_DIR, logFiles.ledger);
    services.push(ledger);
    const gateway = await startService('gateway', { ...env.config, ledgerUrl: ledger.url }, MODE, CPU_PROF_DIR, logFiles.gateway);
    services.push(gateway);
    const ops = opsClient(ledger.url, env.config.opsBootstrapToken);
    await ops.createReceivingAccount();
    // The baseline reads the receiving account once at start, so it starts after provisioning.
    const baseline = await startService('baseline', env.config, MODE, CPU_PROF_DIR);
    services.push(baseline);
    const relay = await startService('relay', { ...env.config, ledgerUrl: baseline.url }, MODE, CPU_PROF_DIR);
    services.push(relay);
    const cpuTargets: CpuTargets = {
      children: { gateway: gateway.pid, ledger: ledger.pid, baseline: baseline.pid, relay: relay.pid },
      databaseName,
    };
    const hot = await ops.createSite(`bench-hot-${process.pid}`, WANTED_RATE_LIMIT);
    if (hot.refused)
      log(
        `ops API refused rateLimitPerMinute=${WANTED_RATE_LIMIT} (${hot.refused}); using ${hot.rateLimitPerMinute} and a fresh API key per Kasa run`,
      );
    /** A fresh key per measured Kasa run keeps each run inside the per-key, per-minute budget. */
    const freshKey = async () => (await ops.issueKey(hot.siteId)).apiKey;
    const kasaHeaders = (apiKey: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${apiKey}`, ...extra });
    const origin: Record<Target, string> = { kasa: gateway.url, relay: relay.url, baseline: baseline.url };

    // Sanity: every create path answers 201 before anything is measured.
    const depositBody = JSON.stringify({ externalUserId: 'bench-user-1', amount: '150000' });
    {
      const key = await freshKey();
      for (const target of TARGET_NAMES) {
        const response = await fetch(
          target === 'kasa' ? `${gateway.url}/api/v1/external/deposits` : `${origin[target]}/sites/${hot.siteId}/deposits`,
          {
            method: 'POST',
            headers: {
              ...(target === 'kasa' ? kasaHeaders(key) : {}),
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: depositBody,
          },
        );
        if (response.status !== 201) throw new Error(`sanity create through ${target}: ${response.status} ${await response.text()}`);
      }
    }

    // Requests per scenario and target. Kasa's paths carry the API key; the relay forwards the baseline's paths.
    let sequence = 0;
    const nextKey = (prefix: string) => `${prefix}-${process.pid}-${(sequence += 1)}`;
    let ids: string[] = [];
    let idIndex = 0;
    const nextId = () => ids[(idIndex = (idIndex + 1) % ids.length)] as string;
    const requestOf = (scenario: Scenario, target: Target, apiKey: string): (() => SteadyRequest) => {
      if (scenario === 'create-deposit') {
        const path = target === 'kasa' ? '/api/v1/external/deposits' : `/sites/${hot.siteId}/deposits`;
        const headers =
          target === 'kasa' ? kasaHeaders(apiKey, { 'content-type': 'application/json' }) : { 'content-type': 'application/json' };
        return () => ({ method: 'POST', path, headers: { ...headers, 'idempotency-key': nextKey(target) }, body: depositBody });
      }
      const prefix = target === 'kasa' ? '/api/v1/external/intents/' : `/sites/${hot.siteId}/intents/`;
      const headers = target === 'kasa' ? kasaHeaders(apiKey) : {};
      return () => ({ method: 'GET', path: `${prefix}${nextId()}`, headers });
    };
    const loadSpec = (scenario: Scenario, target: Target, apiKey: string, warmupSeconds: number, warmupKey = apiKey): LoadSpec => {
      // autocannon calls setupRequest before each request: a fresh key or the next id every time.
      const requestsOf = (key: string): LoadSpec['requests'] => {
        const next = requestOf(scenario, target, key);
        return [{ ...next(), setupRequest: () => next() }];
      };
      return {
        name: `${target} ${scenario}`,
        url: origin[target],
        requests: requestsOf(apiKey),
        // The warm-up on a key of its own: a fast lookup run would otherwise pass the site's 100,000 a minute (the
        // most the ops API allows) within warm-up and measured window together, and count cheap 429s as throughput.
        warmupRequests: requestsOf(warmupKey),
        connections: CONNECTIONS,
        warmupSeconds,
        durationSeconds: DURATION,
      };
    };

    const rounds: Round[] = [];
    const steady: SteadyPoint[] = [];
    let lookupPlan: LookupPlan | undefined;
    let turn = 0;
    for (const scenario of WANTED) {
      if (scenario === 'lookup') {
        // Run alone, the lookup has no create runs before it: the intents it reads are made the same way first.
        if (!WANTED.includes('create-deposit')) await makeIntents(gateway.url, kasaHeaders(await freshKey()), depositBody, LOOKUP_IDS);
        lookupPlan = await prepareLookup(env.databaseUrl, hot.siteId);
        ids = lookupPlan.ids;
      }
      for (let index = 0; index < ROUNDS; index += 1) {
        const order = rotation(turn);
        turn += 1;
        const results = {} as Record<Target, LoadResult>;
        for (const target of order) {
          const warmup = index === 0 ? WARMUP : ROUND_WARMUP;
          log(`${scenario} round ${index + 1}/${ROUNDS}: ${target} (${warmup} s warm-up + ${DURATION} s, ${CONNECTIONS} connections)`);
          const apiKey = target === 'kasa' ? await freshKey() : '';
          const warmupKey = target === 'kasa' ? await freshKey() : '';
          const r = await runLoad(loadSpec(scenario, target, apiKey, warmup, warmupKey), cpuTargets);
          results[target] = r;
          log(
            `  ${fmt(r.requestsPerSecond)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
          );
        }
        rounds.push({ scenario, round: index + 1, order, results });
      }

      // Steady load at half of Kasa's saturated throughput, the same rate for all three.
      const kasaSaturated = saturated(rounds, scenario, 'kasa');
      const ratePerSecond = Math.max(1, Math.round(kasaSaturated * STEADY_FRACTION));
      const order = rotation(turn);
      turn += 1;
      const results = {} as Record<Target, SteadyResult>;
      for (const target of order) {
        const apiKey = target === 'kasa' ? await freshKey() : '';
        const r = await runSteady(
          {
            name: `${target} ${scenario} steady ${ratePerSecond}/s`,
            origin: origin[target],
            connections: CONNECTIONS,
            ratePerSecond,
            warmupSeconds: STEADY_WARMUP,
            durationSeconds: STEADY_DURATION,
            next: requestOf(scenario, target, apiKey),
          },
          cpuTargets,
        );
        results[target] = r;
        log(
          `${scenario} steady ${ratePerSecond}/s: ${target} p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, achieved ${r.achievedPerSecond}/s, ` +
            `non-2xx ${r.non2xx}, errors ${r.errors}, machine busy ${Math.round(r.cpu.machineBusy * 100)}%`,
        );
      }
      steady.push({ scenario, ratePerSecond, order, results });
    }

    // The logs were on: count the access-log lines the services really wrote.
    const accessLines = Object.fromEntries(
      Object.entries(logFiles).map(([service, file]) => [service, countLines(file, '"message":"http request"')]),
    );
    log(`access-log lines written: ${JSON.stringify(accessLines)}`);
    const summary = buildSummary({ rounds, steady, lookupPlan, hot, started, code, idleBusy, loadAverage, accessLines });
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (process.env.BENCH_NO_DOCS !== '1' && WANTED.length === SCENARIOS.length) {
      writeSection(repoPath('docs', 'benchmarks.md'), renderMarkdown(summary));
      await formatSection(repoPath('docs', 'benchmarks.md'));
      log('wrote docs/benchmarks.md (partner-api section)');
    }
    if (!summary.allPass) {
      log(
        `targets missed: ${summary.targets
          .filter((t) => !t.pass)
          .map((t) => t.name)
          .join(', ')}`,
      );
      if (process.env.BENCH_STRICT === '1') process.exitCode = 3;
    }
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

/** Formats the section as the repository's prettier would (aligned tables), leaving the rest of the file as it is. */
async function formatSection(path: string): Promise<void> {
  const prettier = await import('prettier');
  const text = readFileSync(path, 'utf8');
  const formatted = await prettier.format(text, { ...(await prettier.resolveConfig(path)), filepath: path });
  const section = (t: string) => t.slice(t.indexOf(START_MARKER), t.indexOf(END_MARKER) + END_MARKER.length);
  writeFileSync(
    path,
    text.replace(section(text), () => section(formatted)),
  );
}

function countLines(file: string, marker: string): number {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes(marker)).length;
  } catch {
    return 0;
  }
}

const runs = (rounds: Round[], scenario: Scenario, target: Target) =>
  rounds.filter((r) => r.scenario === scenario).map((r) => r.results[target]);

/** Mean throughput of one target over the rounds of a scenario (total requests over total measured time). */
function saturated(rounds: Round[], scenario: Scenario, target: Target): number {
  const measured = runs(rounds, scenario, target);
  const requests = measured.reduce((sum, r) => sum + r.totalRequests, 0);
  const seconds = measured.reduce((sum, r) => sum + r.durationSeconds, 0);
  return seconds > 0 ? requests / seconds : 0;
}

/** The lookup rotates over this many intents of the hot site. */
const LOOKUP_IDS = 10_000;

/** `count` deposit intents created through Kasa's partner API, 16 at a time (not measured). */
async function makeIntents(gatewayUrl: string, headers: Record<string, string>, body: string, count: number): Promise<void> {
  const started = Date.now();
  let made = 0;
  const worker = async () => {
    while (made < count) {
      made += 1;
      const response = await fetch(`${gatewayUrl}/api/v1/external/deposits`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body,
      });
      if (response.status !== 201) throw new Error(`making intents for the lookup: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  log(`made ${count} intents for the lookup in ${Date.now() - started} ms`);
}

interface LookupPlan {
  ids: string[];
  staleStats: PlanSummary | { error: string };
  afterAnalyze: PlanSummary | { error: string };
  analyzeMs: number;
}

/**
 * Ids of the hot site's intents (made by the create runs). The table statistics then still say the site has
 * almost no rows and autovacuum would not re-analyze yet, so the planner might take the (site_id, ...) index
 * for the lookup instead of the primary key: the plan is recorded as it is, then ANALYZE runs (what autovacuum
 * eventually does) so the lookup runs measure the API path.
 */
async function prepareLookup(databaseUrl: string, siteId: string): Promise<LookupPlan> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let ids: string[];
  try {
    const { rows } = await client.query<{ id: string }>(
      'SELECT id::text FROM deposit_intents WHERE site_id = $1::uuid ORDER BY random() LIMIT $2',
      [siteId, LOOKUP_IDS],
    );
    ids = rows.map((row) => row.id);
  } finally {
    await client.end();
  }
  if (ids.length === 0) throw new Error('no intents to look up');
  const asError = (error: unknown) => ({ error: String(error) });
  const staleStats = await explainLookup(databaseUrl, siteId, ids[0] as string).catch(asError);
  const analyzeMs = await analyzeDeposits(databaseUrl);
  const afterAnalyze = await explainLookup(databaseUrl, siteId, ids[0] as string).catch(asError);
  log(
    `lookup over ${ids.length} ids; plan after ANALYZE (${analyzeMs} ms): ${'summary' in afterAnalyze ? afterAnalyze.summary : afterAnalyze.error}`,
  );
  return { ids, staleStats, afterAnalyze, analyzeMs };
}

interface TargetResult {
  name: string;
  label: string;
  measured: string;
  value: number;
  pass: boolean;
}

type Summary = ReturnType<typeof buildSummary>;

function buildSummary(input: {
  rounds: Round[];
  steady: SteadyPoint[];
  lookupPlan: LookupPlan | undefined;
  hot: { rateLimitPerMinute: number; refused?: string };
  started: number;
  code: { commit: string; dirtyFiles: number };
  idleBusy: number;
  loadAverage: number[];
  accessLines: Record<string, number>;
}) {
  const scenarios = [...new Set(input.rounds.map((r) => r.scenario))].map((scenario) => {
    const mean = Object.fromEntries(TARGET_NAMES.map((t) => [t, round(saturated(input.rounds, scenario, t), 0)])) as Record<Target, number>;
    const perRound = input.rounds
      .filter((r) => r.scenario === scenario)
      .map((r) => round(r.results.kasa.requestsPerSecond / Math.max(1, r.results.relay.requestsPerSecond), 3));
    // CPU per request of each target's own servers, mean of the rounds: what bounds throughput on a quiet machine.
    const cpuOf = (target: Target, components: string[]) =>
      round(
        runs(input.rounds, scenario, target).reduce(
          (sum, r) => sum + components.reduce((total, c) => total + (r.cpuMsPerRequest[c] ?? 0), 0),
          0,
        ) / ROUNDS,
        3,
      );
    return {
      scenario,
      requestsPerSecond: mean,
      serverCpuMsPerRequest: {
        kasa: cpuOf('kasa', ['gateway', 'ledger']),
        relay: cpuOf('relay', ['relay', 'baseline']),
        baseline: cpuOf('baseline', ['baseline']),
      },
      kasaOfRelay: round(mean.kasa / Math.max(1, mean.relay), 3),
      kasaOfRelayPerRound: perRound,
      relayOfBaseline: round(mean.relay / Math.max(1, mean.baseline), 3),
      kasaOfBaseline: round(mean.kasa / Math.max(1, mean.baseline), 3),
    };
  });
  const targets: TargetResult[] = [];
  for (const s of scenarios) {
    targets.push({
      name: `throughput:${s.scenario}`,
      label: `${s.scenario}: Kasa throughput >= ${TARGETS.throughputOfRelay[s.scenario] * 100}% of the relay's (mean of ${ROUNDS} alternating rounds)`,
      measured: `${fmt(s.kasaOfRelay * 100, 0)}% (rounds: ${s.kasaOfRelayPerRound.map((r) => `${fmt(r * 100, 0)}%`).join(', ')})`,
      value: s.kasaOfRelay,
      pass: s.kasaOfRelay >= TARGETS.throughputOfRelay[s.scenario],
    });
  }
  for (const p of input.steady) {
    const kasa = p.results.kasa.latencyMs.p99;
    const relay = p.results.relay.latencyMs.p99;
    targets.push({
      name: `p99steady:${p.scenario}`,
      label: `${p.scenario}: Kasa p99 <= ${TARGETS.steadyP99OfRelay}x the relay's p99 at a steady ${STEADY_FRACTION * 100}% of Kasa's saturated rate`,
      measured: `${fmt(kasa, 1)} ms vs relay ${fmt(relay, 1)} ms at ${fmt(p.ratePerSecond)} req/s`,
      value: round(kasa / Math.max(0.001, relay), 3),
      pass: kasa <= TARGETS.steadyP99OfRelay * relay,
    });
  }
  const anyErrors =
    input.rounds.some((r) => TARGET_NAMES.some((t) => r.results[t].non2xx + r.results[t].errors + r.results[t].timeouts > 0)) ||
    input.steady.some((p) => TARGET_NAMES.some((t) => p.results[t].non2xx + p.results[t].errors > 0));
  targets.push({
    name: 'noErrors',
    label: 'no errors, timeouts or non-2xx in any run',
    measured: anyErrors ? 'some' : 'none',
    value: anyErrors ? 1 : 0,
    pass: !anyErrors,
  });
  return {
    benchmark: 'partner-api',
    date: new Date().toISOString(),
    machine: {
      nproc: nproc(),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      busyBeforeBench: input.idleBusy,
      loadAverage: input.loadAverage,
    },
    code: input.code,
    method: {
      mode: MODE,
      logLevel: LOG_LEVEL,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      warmupSeconds: { firstRound: WARMUP, laterRounds: ROUND_WARMUP },
      durationSeconds: DURATION,
      steady: { fraction: STEADY_FRACTION, warmupSeconds: STEADY_WARMUP, durationSeconds: STEADY_DURATION },
      rateLimitPerMinute: input.hot.rateLimitPerMinute,
      rateLimitRefused: input.hot.refused ?? null,
      accessLogLines: input.accessLines,
    },
    scenarios,
    rounds: input.rounds,
    steady: input.steady,
    lookupPlan: input.lookupPlan ? { ...input.lookupPlan, ids: input.lookupPlan.ids.length } : null,
    targets,
    allPass: targets.every((t) => t.pass),
    wallSeconds: Math.round((Date.now() - input.started) / 1000),
  };
}

function renderMarkdown(s: Summary): string {
  const lines: string[] = [];
  const m = s.method;
  lines.push(
    `Run ${s.date.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- partner-api\` (${s.wallSeconds} s wall), on commit ${s.code.commit}` +
      (s.code.dirtyFiles > 0 ? ` plus ${s.code.dirtyFiles} uncommitted file(s) under services/, packages/, prisma/.` : '.'),
  );
  lines.push('');
  lines.push(
    `**Machine:** ${s.machine.nproc} CPUs (nproc), Node ${s.machine.node}, ${s.machine.platform}; PostgreSQL and Redis on the same machine. ` +
      `Load average ${s.machine.loadAverage.join(' / ')} (1/5/15 min) and ${fmt(s.machine.busyBeforeBench * 100)}% of all cores busy in the 2 s before the bench started: ` +
      `other work on the machine slows all three targets, which is why they run in alternating rounds and are compared by ratio.`,
  );
  lines.push('');
  lines.push(
    `**Method:** Kasa is the gateway and ledger as the image runs them (\`node services/<name>/dist/main.js\`, configured by environment variables) with \`LOG_LEVEL=${m.logLevel}\`, ` +
      `their log lines appended to a file as a container runtime collects stdout (${Object.entries(m.accessLogLines)
        .map(([service, count]) => `${fmt(count)} access-log lines from the ${service}`)
        .join(', ')}). ` +
      `The relay is a bare Express 5 app (\`express.json()\`, one undici Pool of 50 keep-alive connections, the answer passed back: bench/lib/relay-app.ts) in front of the baseline, ` +
      `a bare Express 5 + pg app doing one SQL statement per request (bench/lib/baseline-app.ts): the relay is the two-hop floor. ` +
      `autocannon 8, ${m.connections} connections, ${m.durationSeconds} s measured per run after a ${m.warmupSeconds.firstRound} s warm-up (${m.warmupSeconds.laterRounds} s in later rounds); ` +
      `${m.rounds} rounds per scenario, the order of the three rotating each round. ` +
      `create-deposit sends a fresh Idempotency-Key per request; lookup rotates over ${fmt(s.lookupPlan?.ids ?? 0)} intents of the hot site made by the create runs. ` +
      (m.rateLimitRefused
        ? `Sites use a rate limit of ${fmt(m.rateLimitPerMinute)}/min with a fresh API key per Kasa run, so the limiter is consulted on every request without rejecting.`
        : `Sites use a rate limit of ${fmt(m.rateLimitPerMinute)}/min.`),
  );
  lines.push('');
  lines.push('**Saturated (closed loop), mean of the rounds:**');
  lines.push('');
  lines.push(
    '| Scenario | Kasa req/s | relay req/s | baseline req/s | Kasa / relay | relay / baseline | Kasa / baseline | server CPU ms per request: Kasa (gateway + ledger) / relay (relay + baseline) / baseline |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const sc of s.scenarios) {
    const r = sc.requestsPerSecond;
    const c = sc.serverCpuMsPerRequest;
    lines.push(
      `| ${sc.scenario} | ${fmt(r.kasa)} | ${fmt(r.relay)} | ${fmt(r.baseline)} | ${fmt(sc.kasaOfRelay * 100, 0)}% | ${fmt(sc.relayOfBaseline * 100, 0)}% | ${fmt(sc.kasaOfBaseline * 100, 0)}% | ${fmt(c.kasa, 3)} / ${fmt(c.relay, 3)} / ${fmt(c.baseline, 3)} |`,
    );
  }
  lines.push('');
  lines.push(
    'On a busy machine the throughput ratio also measures how often each request waits for a CPU: a Kasa request wakes more processes in turn (gateway, Redis, ledger, PostgreSQL) than a relayed one. ' +
      'The CPU its own servers spend per request is the part that does not depend on the neighbours.',
  );
  lines.push('');
  lines.push('Each run, in the order measured (CPU ms per request from /proc during the measured window):');
  lines.push('');
  lines.push(
    '| Scenario | round | target | req/s | p50 ms | p99 ms | gateway | ledger | relay | baseline | PostgreSQL | Redis | load generator | machine busy |',
  );
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of s.rounds) {
    for (const target of r.order) {
      const x = r.results[target];
      const c = (k: string) => (x.cpuMsPerRequest[k] === undefined ? '-' : fmt(x.cpuMsPerRequest[k] as number, 3));
      lines.push(
        `| ${r.scenario} | ${r.round} | ${target} | ${fmt(x.requestsPerSecond)} | ${fmt(x.latencyMs.p50)} | ${fmt(x.latencyMs.p99)} | ${c('gateway')} | ${c('ledger')} | ${c('relay')} | ${c('baseline')} | ${c('postgres')} | ${c('redis')} | ${c('loadgen')} | ${fmt(x.cpu.machineBusy * 100, 0)}% |`,
      );
    }
  }
  lines.push('');
  lines.push(
    `**Steady (open loop)** at ${m.steady.fraction * 100}% of Kasa's saturated rate, the same rate for all three, over an undici Pool of ${m.connections} keep-alive connections (bench/lib/steady-load.ts): ` +
      `evenly spaced send instants, ${m.steady.warmupSeconds} s warm-up then ${m.steady.durationSeconds} s measured, latency counted from each request's scheduled instant (no coordinated omission).`,
  );
  lines.push('');
  lines.push('| Scenario | offered req/s | Kasa p50 / p99 ms | relay p50 / p99 ms | baseline p50 / p99 ms | non-2xx + errors |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const p of s.steady) {
    const l = (t: Target) => `${fmt(p.results[t].latencyMs.p50, 1)} / ${fmt(p.results[t].latencyMs.p99, 1)}`;
    const bad = TARGET_NAMES.reduce((sum, t) => sum + p.results[t].non2xx + p.results[t].errors, 0);
    lines.push(`| ${p.scenario} | ${fmt(p.ratePerSecond)} | ${l('kasa')} | ${l('relay')} | ${l('baseline')} | ${bad} |`);
  }
  lines.push('');
  lines.push('| Target | Measured | Result |');
  lines.push('|---|---|---|');
  for (const t of s.targets) lines.push(`| ${t.label} | ${t.measured} | ${passFail(t.pass)} |`);
  lines.push('');
  const lookup = s.lookupPlan;
  if (lookup && 'summary' in lookup.afterAnalyze) {
    lines.push(
      `Lookup plan (the ledger's findInSite SQL) after \`ANALYZE deposit_intents\` (${lookup.analyzeMs} ms; run before the lookup rounds because autovacuum would not yet): ` +
        `${lookup.afterAnalyze.executionMs} ms, ${lookup.afterAnalyze.summary.replace(/'[0-9a-f-]{36}'::uuid/g, '$uuid')}.`,
    );
    lines.push('');
  }
  lines.push(
    `Overall: ${s.allPass ? 'all targets met' : 'some targets missed (see FAIL rows); figures are as measured, nothing tuned away'}. Full JSON is printed by the bench on stdout.`,
  );
  return lines.join('\n');
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
