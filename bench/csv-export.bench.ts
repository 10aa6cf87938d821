/**
 * CSV export benchmark: one site's 100,000 deposits downloaded as one file (`GET /ops/v1/intents` with
 * `Accept: text/csv`) from the compiled ledger (`node services/ledger/dist/main.js`, NODE_ENV=production), while
 * its resident memory is sampled. The point is bounded memory: the ledger streams the file 500 rows a page
 * (services/ledger/src/shared/ops-list-csv.ts), so its peak RSS should stay near its RSS before, however many
 * rows the file has. Not a timed test: the seconds are reported, not judged.
 *
 *   npx tsx bench/csv-export.bench.ts          (npm run bench -- csv-export)
 *
 * 1. A fresh database, migrated; the ledger started; one site and receiving account through the ops API, then
 *    BENCH_CSV_ROWS deposits (default 100,000) bulk-inserted with one INSERT ... SELECT (bench/lib/seed.ts).
 * 2. Warm-up: one JSON page and one small CSV file, so the code paths are loaded before "before" is read.
 * 3. Three exports, each while the ledger's VmRSS is read from /proc every 25 ms and its used heap from /metrics:
 *    a tenth of the site (a `createdFrom` window), the whole site read as fast as this process can, and the whole
 *    site read by a slow reader (a pause after each chunk) that leaves after 8 MiB: the ledger must hold back
 *    (backpressure) rather than buffer the rest, and stop when the reader goes away. Bounded memory: the whole
 *    file's peak RSS exceeds the tenth's by less than half the difference in file size (holding it would cost more).
 *
 * Environment: BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_CSV_ROWS (1,000 to 1,000,000), BENCH_CPU_PROF_DIR
 * (--cpu-prof the first ledger there: its profile holds the timed exports, written when it stops).
 * Prints a JSON summary; rewrites only the csv-export section of docs/benchmarks.md. Exits 0 when the run
 * completed (a missed goal is reported, not an error), 1 when it could not run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { goalTable, goalVerdict, percentOf, rangeOf, type Goal } from './lib/goals.js';
import { writeMarkedSection } from './lib/doc-section.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';
import { opsClient } from './lib/ops.js';
import { repoPath } from './lib/processes.js';
import { fmt } from './lib/report.js';
import { benchRun } from './lib/bench-run.js';
import { seedDeposits, type SeedResult } from './lib/seed.js';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
if (!Number.isInteger(ROWS) || ROWS < 1_000 || ROWS > 1_000_000) throw new Error('BENCH_CSV_ROWS: a whole number from 1000 to 1000000');
const SAMPLE_MS = 25;
const WATCHDOG_MS = 20 * 60_000;
const SLOW_READ_BYTES = 8 * 1024 * 1024;
const CAPPED_HEAP_MB = 96;
/** The ledger's whole-site rows/s as a share of the floor's (a bare cursor through a bare HTTP server), mean of the rounds. */
const TARGET_RATIO = 0.25;
const FLOOR_ROUNDS = 2;
const DOC = process.env.BENCH_DOC_FILE ?? repoPath('docs', 'benchmarks.md');
/** A directory for a V8 CPU profile of the first ledger (the one the timed exports read), written when it stops. */
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF_DIR || undefined;

/** The floor's server (bench/lib/csv-floor.mjs) in a process of its own, as the ledger is; stopped by its own pid. */
async function startFloor(databaseUrl: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['bench/lib/csv-floor.mjs'], {
    cwd: repoPath(),
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('csv floor: not listening after 30 s')), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const port = (JSON.parse(line) as { port?: number }).port;
      if (typeof port === 'number') {
        clearTimeout(timer);
        resolve(port);
      }
    });
    child.once('exit', (code) => reject(new Error(`csv floor exited ${code}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  if (child.pid === undefined) throw new Error('csv floor: no pid');
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop };
}

const log = (message: string) => process.stderr.write(`[csv-export ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system) `pid` has used so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** VmRSS and VmHWM (the process's peak so far) of `pid`, in MiB. */
function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** The ledger's used JS heap (MiB), from its Prometheus metrics (prom-client's default `nodejs_heap_size_used_bytes`). */
async function heapUsedMb(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((response) => response.text());
  return Number(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? Number.NaN) / 1024 / 1024;
}

interface MemoryPeak {
  peakMb: number;
  heapPeakMb: number;
  samples: number;
}

/** Samples `pid`'s RSS every SAMPLE_MS, and its used heap every 10th sample, until stopped: the largest of each. */
function sampleMemory(pid: number, url: string): () => Promise<MemoryPeak> {
  let peakMb = 0;
  let heapPeakMb = 0;
  let samples = 0;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, memoryOf(pid).rssMb);
    samples += 1;
    if (samples % 10 === 0) {
      heapUsedMb(url).then(
        (mb) => (heapPeakMb = Math.max(heapPeakMb, mb)),
        () => undefined,
      );
    }
  }, SAMPLE_MS);
  return async () => {
    clearInterval(timer);
    const heap = await heapUsedMb(url).catch(() => 0);
    return { peakMb: Math.max(peakMb, memoryOf(pid).rssMb), heapPeakMb: Math.max(heapPeakMb, heap), samples: samples + 1 };
  };
}

interface Download {
  status: number;
  contentType: string | null;
  filename: string | null;
  bytes: number;
  /** Records after the header (no seeded field holds a line break, so a CRLF ends a record). */
  rows: number;
  firstLine: string;
  seconds: number;
  /** When half the expected rows had arrived (s), for a reader given `halfOf`. */
  halfSeconds: number | null;
}

/** Reads the export; `pause` after each chunk (the slow reader) and `maxBytes` (then it cancels: the reader leaves). */
async function download(
  url: string,
  token: string,
  options: { pause?: number; maxBytes?: number; halfOf?: number } = {},
): Promise<Download> {
  const started = performance.now();
  const response = await fetch(url, { headers: { accept: 'text/csv', authorization: `Bearer ${token}` } });
  if (!response.body) throw new Error(`export: ${response.status} without a body`);
  const reader = response.body.getReader();
  let bytes = 0;
  let lines = 0;
  let firstLine = '';
  let halfSeconds: number | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstLine) firstLine = Buffer.from(value.subarray(0, 400)).toString('utf8').split('\r\n')[0] ?? '';
    bytes += value.byteLength;
    for (const byte of value) if (byte === 0x0a) lines += 1;
    if (halfSeconds === null && options.halfOf !== undefined && lines > options.halfOf / 2)
      halfSeconds = (performance.now() - started) / 1000;
    if (options.maxBytes !== undefined && bytes >= options.maxBytes) {
      await reader.cancel();
      break;
    }
    if (options.pause) await sleep(options.pause);
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    filename: /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null,
    bytes,
    rows: Math.max(0, lines - 1),
    firstLine,
    seconds: (performance.now() - started) / 1000,
    halfSeconds,
  };
}

interface Run {
  label: string;
  download: Download;
  memory: MemoryPeak;
  /** The ledger process's CPU time over the export (ms). */
  cpuMs: number;
}

interface Comparison {
  round: number;
  kasaRowsPerSecond: number;
  floorRowsPerSecond: number;
  floorBytes: number;
  /** CPU ms per 1,000 rows of the serving process alone (the ledger's, the floor server's); PostgreSQL's not counted. */
  kasaCpuMsPer1000: number;
  floorCpuMsPer1000: number;
}

interface Summary extends RunHeader {
  benchmark: 'csv-export';
  comparisons: Comparison[];
  seed: SeedResult;
  before: { rssMb: number; hwmMb: number; heapMb: number };
  runs: Run[];
  rssAfterMb: number;
  cappedBeforeMb: number;
  goals: Record<string, { goal: string; value: number; met: boolean }>;
  serviceErrorLogLines: number;
  wallSeconds: number;
}

async function main(): Promise<void> {
  const wallStart = performance.now();
  const startedAt = new Date().toISOString();
  const code = gitState(repoPath());
  await benchRun({ database: 'kasa_bench_csv', watchdogMs: WATCHDOG_MS, log }, async ({ env, databaseUrl, start }) => {
    const started = await start('ledger', {}, CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []);
    const pid = started.pid;
    if (pid === null) throw new Error('the ledger has no pid');
    const token = env.OPS_BOOTSTRAP_TOKEN as string;
    const ops = opsClient(started.url, token);
    const site = await ops.createSite(`bench-csv-${process.pid}`, 1_000);
    const account = await ops.createReceivingAccount();
    log(`seeding ${fmt(ROWS)} deposits`);
    const seededAt = Date.now();
    const seed = await seedDeposits(databaseUrl, site.siteId, account.id, ROWS);
    log(`seeded in ${fmt(seed.insertMs)} ms (+${fmt(seed.indexMs)} ms indexes)`);

    const exportUrl = `${started.url}/ops/v1/intents?siteId=${site.siteId}`;
    // The seed writes two rows a second back from an hour before it ran: this window holds about a tenth of them.
    const tenthFrom = new Date(seededAt - 3600_000 - (ROWS / 20) * 1000).toISOString();
    const page = await ops.call('GET', `/ops/v1/intents?siteId=${site.siteId}&limit=100`);
    if (page.status !== 200) throw new Error(`JSON list: ${page.status}`);
    const warm = await download(`${exportUrl}&status=REJECTED&createdFrom=${encodeURIComponent(tenthFrom)}`, token);
    if (warm.status !== 200) throw new Error(`warm-up export: ${warm.status}`);
    await sleep(1_000);
    const before = { ...memoryOf(pid), heapMb: await heapUsedMb(started.url) };
    log(`ledger RSS before: ${before.rssMb.toFixed(1)} MiB (heap used ${before.heapMb.toFixed(1)} MiB)`);

    const measure = async (label: string, url: string, options: Parameters<typeof download>[2] = {}): Promise<Run> => {
      await sleep(1_000);
      const stop = sampleMemory(pid, started.url);
      const cpuBefore = cpuMsOf(pid);
      const file = await download(url, token, options);
      const cpuMs = cpuMsOf(pid) - cpuBefore;
      // A reader that left: give the ledger a moment to notice and settle before the last sample.
      if (options.maxBytes !== undefined) await sleep(2_000);
      const memory = await stop();
      if (file.status !== 200) throw new Error(`${label}: ${file.status}`);
      log(
        `${label}: ${fmt(file.rows)} rows, ${fmt(file.bytes / 1024 / 1024, 1)} MiB in ${file.seconds.toFixed(2)} s; ` +
          `peak RSS ${memory.peakMb.toFixed(1)} MiB, peak heap used ${memory.heapPeakMb.toFixed(1)} MiB`,
      );
      return { label, download: file, memory, cpuMs };
    };
    const tenth = await measure('a tenth of the site', `${exportUrl}&createdFrom=${encodeURIComponent(tenthFrom)}`);
    // The floor in alternating rounds with the ledger's whole-site export: a bare cursor through a bare HTTP server.
    const floor = await startFloor(databaseUrl);
    const floorUrl = `${floor.url}/export?siteId=${site.siteId}`;
    const comparisons: Comparison[] = [];
    let full: Run | undefined;
    try {
      await download(floorUrl, token); // warm-up
      for (let round = 1; round <= FLOOR_ROUNDS; round += 1) {
        const kasaFirst = round % 2 === 1;
        const floorRun = async () => {
          await sleep(1_000);
          const cpuBefore = cpuMsOf(floor.pid);
          const file = await download(floorUrl, token);
          const cpuMs = cpuMsOf(floor.pid) - cpuBefore;
          if (file.status !== 200 || file.rows !== ROWS) throw new Error(`floor export: ${file.status}, ${file.rows} rows`);
          log(`floor: ${fmt(file.rows)} rows in ${file.seconds.toFixed(2)} s, ${fmt(cpuMs)} ms of its CPU`);
          return { file, cpuMs };
        };
        const first = kasaFirst ? await measure('the whole site', exportUrl, { halfOf: ROWS }) : await floorRun();
        const second = kasaFirst ? await floorRun() : await measure('the whole site', exportUrl, { halfOf: ROWS });
        const kasa = (kasaFirst ? first : second) as Run;
        const bare = (kasaFirst ? second : first) as { file: Download; cpuMs: number };
        full ??= kasa;
        comparisons.push({
          round,
          kasaRowsPerSecond: kasa.download.rows / kasa.download.seconds,
          floorRowsPerSecond: bare.file.rows / bare.file.seconds,
          floorBytes: bare.file.bytes,
          kasaCpuMsPer1000: Math.round((kasa.cpuMs / kasa.download.rows) * 10_000) / 10,
          floorCpuMsPer1000: Math.round((bare.cpuMs / bare.file.rows) * 10_000) / 10,
        });
      }
    } finally {
      await floor.stop();
    }
    if (!full) throw new Error('no whole-site export');
    const slow = await measure(`the whole site, slow reader leaving after ${fmt(SLOW_READ_BYTES / 1024 / 1024)} MiB`, exportUrl, {
      pause: 50,
      maxBytes: SLOW_READ_BYTES,
    });
    const rssAfterMb = memoryOf(pid).rssMb;
    const health = await fetch(`${started.url}/readyz`).then((r) => r.status);
    if (health !== 200) throw new Error(`ledger not ready after the cut-off export: ${health}`);

    // V8 lets garbage pile up to a heap limit it sizes by itself, so a peak alone does not tell garbage from rows
    // held on to. The proof: the same export from a ledger whose old space is capped well below what holding the
    // rows would take. Buffering would end in an out-of-memory crash; streaming completes.
    await started.stop();
    const capped = await start('ledger', { NODE_OPTIONS: `--max-old-space-size=${CAPPED_HEAP_MB}` });
    if (capped.pid === null) throw new Error('the capped ledger has no pid');
    const cappedPid = capped.pid;
    const cappedUrl = `${capped.url}/ops/v1/intents?siteId=${site.siteId}`;
    await download(`${cappedUrl}&status=REJECTED&createdFrom=${encodeURIComponent(tenthFrom)}`, token);
    const cappedBeforeMb = memoryOf(cappedPid).rssMb;
    const cappedRun = await (async (): Promise<Run> => {
      await sleep(1_000);
      const stop = sampleMemory(cappedPid, capped.url);
      const file = await download(cappedUrl, token).catch((error: unknown) => {
        log(`capped export failed: ${String(error)}`);
        return null;
      });
      const memory = await stop().catch(() => ({ peakMb: Number.NaN, heapPeakMb: Number.NaN, samples: 0 }));
      const failed = { status: 0, contentType: null, filename: null, bytes: 0, rows: 0, firstLine: '', seconds: 0, halfSeconds: null };
      return {
        label: `the whole site, ledger's old space capped at ${CAPPED_HEAP_MB} MiB`,
        download: file ?? failed,
        memory,
        cpuMs: Number.NaN,
      };
    })();
    log(
      `capped: ${cappedRun.download.status}, ${fmt(cappedRun.download.rows)} rows in ${cappedRun.download.seconds.toFixed(2)} s; ` +
        `RSS before ${cappedBeforeMb.toFixed(1)} MiB, peak ${cappedRun.memory.peakMb.toFixed(1)} MiB`,
    );

    const summary: Summary = {
      benchmark: 'csv-export',
      ...runHeader(startedAt, code),
      seed,
      before: { rssMb: round(before.rssMb), hwmMb: round(before.hwmMb), heapMb: round(before.heapMb) },
      runs: [tenth, full, slow, cappedRun],
      comparisons,
      rssAfterMb: round(rssAfterMb),
      cappedBeforeMb: round(cappedBeforeMb),
      goals: {
        allRows: { goal: `${fmt(ROWS)} rows`, value: full.download.rows, met: full.download.rows === ROWS },
        boundedMemory: {
          goal: `every row with the old space capped at ${CAPPED_HEAP_MB} MiB`,
          value: cappedRun.download.rows,
          met: cappedRun.download.status === 200 && cappedRun.download.rows === ROWS,
        },
      },
      serviceErrorLogLines: started.errorLines() + capped.errorLines(),
      wallSeconds: round((performance.now() - wallStart) / 1000, 0),
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (process.env.BENCH_NO_DOCS !== '1') await writeMarkedSection(DOC, 'csv-export', 'CSV export', report(summary));
  });
}

function report(s: Summary): string {
  const mib = (bytes: number) => fmt(bytes / 1024 / 1024, 1);
  const full = s.runs[1];
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const kasaRate = mean(s.comparisons.map((c) => c.kasaRowsPerSecond));
  const floorRate = mean(s.comparisons.map((c) => c.floorRowsPerSecond));
  const ratios = s.comparisons.map((c) => c.kasaRowsPerSecond / c.floorRowsPerSecond);
  const goals: Goal[] = [
    {
      goal: `whole-site rows/s >= ${Math.round(TARGET_RATIO * 100)}% of the floor's (mean of ${s.comparisons.length} alternating rounds)`,
      measured: `${fmt(kasaRate)}/s`,
      floor: `${fmt(floorRate)}/s`,
      ratio: `${percentOf(kasaRate, floorRate)} (rounds: ${rangeOf(ratios, (value) => `${Math.round(value * 100)}%`)})`,
      met: kasaRate >= TARGET_RATIO * floorRate,
    },
    { goal: `every row exported (${fmt(s.seed.rows)})`, measured: fmt(full?.download.rows ?? 0), met: s.goals.allRows?.met ?? false },
    {
      goal: `bounded memory: ${s.goals.boundedMemory?.goal ?? ''}`,
      measured: `${fmt(s.goals.boundedMemory?.value ?? 0)} rows`,
      met: s.goals.boundedMemory?.met ?? false,
    },
  ];
  const rows = s.runs.map(
    ({ label, download: d, memory: m }, i) =>
      `| ${label} | ${fmt(d.rows)} | ${mib(d.bytes)} MiB | ${d.seconds.toFixed(2)} s${d.halfSeconds !== null ? ` (half at ${d.halfSeconds.toFixed(2)} s)` : ''} | ${fmt(d.rows / d.seconds)} | ${(i === 3 ? s.cappedBeforeMb : s.before.rssMb).toFixed(1)} MiB | ${m.peakMb.toFixed(1)} MiB | ${m.heapPeakMb.toFixed(1)} MiB |`,
  );
  return [
    `Run ${s.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- csv-export\` (${s.wallSeconds} s wall), commit ${s.commit}${s.dirtyFiles > 0 ? ` with ${s.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${s.cpus} CPUs (${s.cpuModel}), Node ${s.node}.`,
    '',
    `**Method:** the compiled ledger (\`node services/ledger/dist/main.js\`, NODE_ENV=production, LOG_LEVEL=info) on a fresh database; ${fmt(s.seed.rows)} deposits of one site bulk-inserted with one \`INSERT ... SELECT\` (bench/lib/seed.ts, ${fmt(s.seed.insertMs)} ms). After a warm-up (one JSON page, one small CSV file) each export is \`GET /ops/v1/intents?siteId=...\` with \`Accept: text/csv\`: a tenth of the site (a \`createdFrom\` window), the whole site read as fast as the client can, and the whole site read by a slow client (a 50 ms pause after each chunk) that leaves after ${mib(SLOW_READ_BYTES)} MiB. Meanwhile the ledger's VmRSS is read from /proc every ${SAMPLE_MS} ms and its used JS heap from its /metrics every ${SAMPLE_MS * 10} ms. The ledger reads 500 rows a page through the list's keyset cursor and writes a page only once the socket has drained the previous one. Ledger before the exports: RSS ${s.before.rssMb.toFixed(1)} MiB, heap used ${s.before.heapMb.toFixed(1)} MiB.`,
    '',
    '| Export | Rows | Size | Time | Rows/s | RSS before | Peak RSS | Peak heap used |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Used heap counts garbage not yet collected: V8 lets it grow towards a limit it sizes itself, so the uncapped peaks say little about what the export holds. The last row is the proof of bounded memory: a second ledger on the same database, started with \`NODE_OPTIONS=--max-old-space-size=${CAPPED_HEAP_MB}\`, exports all ${fmt(s.seed.rows)} rows; a ledger holding the rows (or the ${mib(full?.download.bytes ?? 0)} MiB file) would have died of an out-of-memory error.`,
    '',
    `The file: \`${full?.download.contentType ?? 'n/a'}\`, \`${full?.download.filename ?? 'n/a'}\`. RSS two seconds after the slow reader left: ${s.rssAfterMb.toFixed(1)} MiB; the ledger answered /readyz after it. ${s.serviceErrorLogLines} error log lines.`,
    '',
    `**The floor** (bench/lib/csv-floor.mjs, a process of its own): the same site's rows read by a bare PostgreSQL cursor (\`DECLARE ... CURSOR\`, \`FETCH 500\`; pg-copy-streams is not installed, so no \`COPY ... TO STDOUT\`) and written as CSV by a bare \`node:http\` server with the same backpressure, read by the same client; ${s.comparisons.length} rounds alternating with the ledger's whole-site export, the order swapped each round (${mib(s.comparisons[0]?.floorBytes ?? 0)} MiB, its columns the table's own rather than the export's). The CPU column is the serving process's own user and system time over the download (/proc, 10 ms ticks) per 1,000 rows, PostgreSQL's not counted: what a row costs the ledger, which the machine's other load moves less than it moves rows/s.`,
    '',
    '| Round | Ledger rows/s | Floor rows/s | Ledger / floor | CPU ms per 1,000 rows: ledger / floor server |',
    '|---:|---:|---:|---:|---:|',
    ...s.comparisons.map(
      (c) =>
        `| ${c.round} | ${fmt(c.kasaRowsPerSecond)} | ${fmt(c.floorRowsPerSecond)} | ${percentOf(c.kasaRowsPerSecond, c.floorRowsPerSecond)} | ${fmt(c.kasaCpuMsPer1000, 1)} / ${fmt(c.floorCpuMsPer1000, 1)} |`,
    ),
    '',
    goalTable(goals),
    '',
    goalVerdict(goals),
  ].join('\n');
}

await main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
