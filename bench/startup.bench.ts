/**
 * Start-up benchmark: how long each service takes to start and how much memory it holds once started, run
 * the ways a container has run it: from TypeScript source through tsx (`npx tsx services/<name>/src/main.ts`,
 * the image's command before the build step, and `node --import tsx`, what `npm start` and the tests use),
 * and compiled (`node services/<name>/dist/main.js`, the image's command now; also with
 * `--enable-source-maps`, for what mapped stack traces would cost).
 *
 *   npx tsx bench/startup.bench.ts          (npm run bench -- startup)
 *
 * Each run starts one process with a production environment (NODE_ENV=production, fresh secrets, a database
 * migrated by `node packages/db/dist/migrate.js`, a Redis prefix of its own) and measures the time from
 * spawn to its "listening" log line and to the first 200 from /readyz, then the resident memory of the whole
 * process tree (npx and tsx start helper processes) 1 s after that; then SIGTERM. The gateway and the
 * console are measured against a compiled ledger that stays up. Environment: BENCH_STARTUP_RUNS (default 5,
 * after one warm-up run per mode), BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { productionEnvironment } from '../packages/testkit/src/index.js';
import { gitState } from './lib/machine.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const START = '<!-- startup:start -->';
const END = '<!-- startup:end -->';
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const SETTLE_MS = 1_000;

type Service = 'gateway' | 'ledger' | 'webhook-worker' | 'console';
const SERVICES: Service[] = ['gateway', 'ledger', 'webhook-worker', 'console'];

interface Mode {
  name: string;
  command: (service: Service) => string[];
}

const MODES: Mode[] = [
  { name: 'npx tsx src (old image CMD)', command: (s) => ['npx', 'tsx', `services/${s}/src/main.ts`] },
  { name: 'node --import tsx src', command: (s) => [process.execPath, '--import', 'tsx', `services/${s}/src/main.ts`] },
  { name: 'node dist (image CMD)', command: (s) => [process.execPath, `services/${s}/dist/main.js`] },
  { name: 'node --enable-source-maps dist', command: (s) => [process.execPath, '--enable-source-maps', `services/${s}/dist/main.js`] },
];

interface Sample {
  listeningMs: number;
  readyMs: number;
  rssMb: number;
  processes: number;
}

const log = (message: string) => process.stderr.write(`[startup] ${message}\n`);

/** Resident memory (MiB) of `pid` and all its descendants, and how many processes that is. */
function treeRss(pid: number): { rssMb: number; processes: number } {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  let kb = 0;
  for (const member of tree) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${member}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return { rssMb: kb / 1024, processes: tree.length };
}

interface Started {
  child: ChildProcess;
  port: number;
  listeningMs: number;
  spawnedAt: number;
}

async function startProcess(argv: string[], env: Record<string, string>): Promise<Started> {
  const spawnedAt = performance.now();
  // A process group of its own: what npx and tsx leave behind is stopped with it, as a container's end would.
  const child = spawn(argv[0]!, argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${argv.join(' ')}: not listening after 60 s: ${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { message?: string; port?: number };
        if (/ (listening|running)$/.test(entry.message ?? '') && typeof entry.port === 'number') {
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // Not a log line.
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited ${code}: ${stderr}`));
    });
  });
  return { child, port, listeningMs: performance.now() - spawnedAt, spawnedAt };
}

/** SIGTERM to the process, then SIGKILL to whatever is left of its group (npx does not pass SIGTERM on). */
async function stopProcess(child: ChildProcess): Promise<void> {
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Nothing left.
    }
  };
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(killGroup, 30_000);
    await exited;
    clearTimeout(timer);
  }
  killGroup();
}

async function waitReady(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.text();
      if (response.status === 200) return;
    } catch {
      // Not yet.
    }
    if (Date.now() > deadline) throw new Error(`port ${port}: /readyz not 200 after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function measure(argv: string[], env: Record<string, string>): Promise<Sample> {
  const started = await startProcess(argv, env);
  try {
    await waitReady(started.port);
    const readyMs = performance.now() - started.spawnedAt;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { listeningMs: started.listeningMs, readyMs, ...treeRss(started.child.pid!) };
  } finally {
    await stopProcess(started.child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const wallStart = performance.now();
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);

  // HOME and the notifier switch for the `npx tsx` runs; the rest is what a container gets.
  const production = productionEnvironment({ HOME: process.env.HOME ?? '/tmp', NPM_CONFIG_UPDATE_NOTIFIER: 'false' }, 'kasa_bench_startup');
  const { env } = production;
  const migrate = spawnSync(process.execPath, ['packages/db/dist/migrate.js'], { cwd: ROOT, env, encoding: 'utf8' });
  if (migrate.status !== 0) throw new Error(`migrate failed: ${migrate.stderr}`);

  let ledger: Started | undefined;
  const results: Record<string, Record<string, Sample[]>> = {};
  try {
    ledger = await startProcess([process.execPath, 'services/ledger/dist/main.js'], env);
    await waitReady(ledger.port);
    const withLedger = { ...env, LEDGER_URL: `http://127.0.0.1:${ledger.port}` };
    for (const service of SERVICES) {
      results[service] = {};
      for (const mode of MODES) {
        log(`${service}: ${mode.name} (1 warm-up + ${RUNS})`);
        await measure(mode.command(service), withLedger);
        results[service][mode.name] = [];
      }
      // Modes interleaved, so a busier moment of the machine does not fall on one mode only.
      for (let run = 0; run < RUNS; run += 1) {
        for (const mode of run % 2 === 0 ? MODES : [...MODES].reverse()) {
          results[service][mode.name]!.push(await measure(mode.command(service), withLedger));
        }
      }
    }
  } finally {
    if (ledger) await stopProcess(ledger.child);
    await production.cleanup();
  }

  const rows = SERVICES.flatMap((service) =>
    MODES.map((mode) => {
      const samples = results[service]![mode.name]!;
      return {
        service,
        mode: mode.name,
        listeningMs: median(samples.map((s) => s.listeningMs)),
        readyMs: median(samples.map((s) => s.readyMs)),
        rssMb: median(samples.map((s) => s.rssMb)),
        processes: median(samples.map((s) => s.processes)),
      };
    }),
  );
  const report = { runs: RUNS, cpus: availableParallelism(), node: process.version, git: gitState(ROOT), rows };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (process.env.BENCH_NO_DOCS !== '1') await writeSection(render(report, (performance.now() - wallStart) / 1000));
}

function render(
  report: {
    runs: number;
    cpus: number;
    node: string;
    git: { commit: string; dirtyFiles: number };
    rows: Array<Record<string, string | number>>;
  },
  wallSeconds: number,
): string {
  const fmt = (value: number | string) => (typeof value === 'number' ? Math.round(value).toLocaleString('en-US') : value);
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npx tsx bench/startup.bench.ts\` (${Math.round(wallSeconds)} s wall), on commit ${report.git.commit}${report.git.dirtyFiles > 0 ? ` with ${report.git.dirtyFiles} changed files` : ''}; ${report.cpus} CPUs, Node ${report.node}; PostgreSQL 15 and Redis 7 on the same machine.`,
    '',
    `**Method:** each service started ${report.runs} times per way (after one warm-up start), ways interleaved, with a production environment (NODE_ENV=production, a migrated database, a Redis prefix of its own; the gateway and the console against a compiled ledger that stays up). _listening_ is from spawn to the service's "listening"/"running" log line, _ready_ to the first 200 from /readyz (polled every 5 ms), _RSS_ the resident memory of the whole process tree 1 s after ready (npx and tsx run the service under helper processes: _processes_ counts them). Medians.`,
    '',
    '| Service | Started with | listening ms | ready ms | RSS MiB | processes |',
    '|---|---|---:|---:|---:|---:|',
    ...report.rows.map(
      (row) =>
        `| ${row.service} | ${row.mode} | ${fmt(row.listeningMs!)} | ${fmt(row.readyMs!)} | ${fmt(row.rssMb!)} | ${fmt(row.processes!)} |`,
    ),
  ];
  return lines.join('\n');
}

async function writeSection(body: string): Promise<void> {
  const section = `${START}\n${body.trim()}\n${END}`;
  const text = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  const next =
    start !== -1 && end > start
      ? text.slice(0, start) + section + text.slice(end + END.length)
      : `${text.replace(/\s*$/, '')}\n\n## Start-up and memory\n\n${section}\n`;
  // Formatted as `npm run format:check` wants it (tables aligned).
  const prettier = await import('prettier');
  writeFileSync(DOC, await prettier.format(next, { ...(await prettier.resolveConfig(DOC)), filepath: DOC }));
}

await main();
