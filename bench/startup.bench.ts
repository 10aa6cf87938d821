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
 * console are measured against a compiled ledger that stays up. The floor, interleaved with every service's runs: a
 * bare node:http server that connects to the same PostgreSQL and Redis before it listens (bench/lib/startup-floor.mjs).
 * Goals from the deployment (k8s/base): ready within the startup probe's period, RSS within the memory request; the
 * ratio of each to the floor beside them. Environment: BENCH_STARTUP_RUNS (default 5, after one warm-up run per
 * mode), BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_DOC_FILE (write the section there instead).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { productionEnvironment } from '../packages/testkit/src/index.js';
import { goalTable, goalVerdict, timesOf, type Goal } from './lib/goals.js';
import { gitState } from './lib/machine.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = process.env.BENCH_DOC_FILE ?? `${ROOT}docs/benchmarks.md`;
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

/** The floor, measured in the same runs: a bare node:http server connecting to the same PostgreSQL and Redis (bench/lib/startup-floor.mjs). */
const FLOOR: Mode = { name: 'floor: bare node:http + pg + ioredis', command: () => [process.execPath, 'bench/lib/startup-floor.mjs'] };
const IMAGE_MODE = 'node dist (image CMD)';

const MODES: Mode[] = [
  { name: 'npx tsx src (old image CMD)', command: (s) => ['npx', 'tsx', `services/${s}/src/main.ts`] },
  { name: 'node --import tsx src', command: (s) => [process.execPath, '--import', 'tsx', `services/${s}/src/main.ts`] },
  { name: IMAGE_MODE, command: (s) => [process.execPath, `services/${s}/dist/main.js`] },
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
  const loadAtStart = loadavg().map((value) => Math.round(value * 100) / 100);
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
    const measured = [...MODES, FLOOR];
    for (const service of SERVICES) {
      results[service] = {};
      for (const mode of measured) {
        log(`${service}: ${mode.name} (1 warm-up + ${RUNS})`);
        await measure(mode.command(service), withLedger);
        results[service][mode.name] = [];
      }
      // Modes interleaved, so a busier moment of the machine does not fall on one mode only.
      for (let run = 0; run < RUNS; run += 1) {
        for (const mode of run % 2 === 0 ? measured : [...measured].reverse()) {
          results[service][mode.name]!.push(await measure(mode.command(service), withLedger));
        }
      }
    }
  } finally {
    if (ledger) await stopProcess(ledger.child);
    await production.cleanup();
  }

  const rows = SERVICES.flatMap((service) =>
    [...MODES, FLOOR].map((mode) => {
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
  const report = {
    runs: RUNS,
    cpus: availableParallelism(),
    node: process.version,
    git: gitState(ROOT),
    load: { start: loadAtStart, end: loadavg().map((value) => Math.round(value * 100) / 100) },
    deployment: Object.fromEntries(SERVICES.map((service) => [service, deploymentOf(service)])),
    rows,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (process.env.BENCH_NO_DOCS !== '1') await writeSection(render(report, (performance.now() - wallStart) / 1000));
}

/** What the deployment asks of a service's start (k8s/base/<service>.yaml): the startup probe's period, the memory request. */
function deploymentOf(service: Service): { startupPeriodSeconds: number; memoryRequestMib: number } {
  const text = readFileSync(`${ROOT}k8s/base/${service}.yaml`, 'utf8');
  const period = Number(/startupProbe:[\s\S]*?periodSeconds:\s*(\d+)/.exec(text)?.[1]);
  const memory = Number(/requests:[\s\S]*?memory:\s*(\d+)Mi/.exec(text)?.[1]);
  if (!Number.isFinite(period) || !Number.isFinite(memory))
    throw new Error(`k8s/base/${service}.yaml: no startupProbe period or memory request`);
  return { startupPeriodSeconds: period, memoryRequestMib: memory };
}

interface Row {
  service: Service;
  mode: string;
  listeningMs: number;
  readyMs: number;
  rssMb: number;
  processes: number;
}

function render(
  report: {
    runs: number;
    cpus: number;
    node: string;
    git: { commit: string; dirtyFiles: number };
    load: { start: number[]; end: number[] };
    deployment: Record<string, { startupPeriodSeconds: number; memoryRequestMib: number }>;
    rows: Row[];
  },
  wallSeconds: number,
): string {
  const fmt = (value: number | string) => (typeof value === 'number' ? Math.round(value).toLocaleString('en-US') : value);
  const floorOf = (service: Service) => report.rows.find((row) => row.service === service && row.mode === FLOOR.name);
  const goals: Goal[] = SERVICES.flatMap((service) => {
    const image = report.rows.find((row) => row.service === service && row.mode === IMAGE_MODE);
    const floor = floorOf(service);
    const deployment = report.deployment[service];
    if (!image || !floor || !deployment) return [];
    const periodMs = deployment.startupPeriodSeconds * 1000;
    return [
      {
        goal: `${service} (image CMD) ready within the startup probe's period (${fmt(periodMs)} ms)`,
        measured: `${fmt(image.readyMs)} ms`,
        floor: `${fmt(floor.readyMs)} ms`,
        ratio: timesOf(image.readyMs, floor.readyMs),
        met: image.readyMs <= periodMs,
      },
      {
        goal: `${service} (image CMD) RSS within its memory request (${fmt(deployment.memoryRequestMib)} MiB)`,
        measured: `${fmt(image.rssMb)} MiB`,
        floor: `${fmt(floor.rssMb)} MiB`,
        ratio: timesOf(image.rssMb, floor.rssMb),
        met: image.rssMb <= deployment.memoryRequestMib,
      },
    ];
  });
  const busy = Math.max(report.load.start[0] ?? 0, report.load.end[0] ?? 0) > report.cpus;
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- startup\` (${Math.round(wallSeconds)} s wall), on commit ${report.git.commit}${report.git.dirtyFiles > 0 ? ` with ${report.git.dirtyFiles} changed files` : ''}; ${report.cpus} CPUs, Node ${report.node}; PostgreSQL and Redis on the same machine; load average (1 min) ${report.load.start[0]} at the start and ${report.load.end[0]} at the end${busy ? ': **the machine was busy with other work**; the floor ran in the same rounds, so the ratios hold better than the milliseconds' : ''}.`,
    '',
    `**Method:** each service started ${report.runs} times per way (after one warm-up start), ways interleaved with **the floor** (a bare \`node:http\` server in plain JavaScript, \`node bench/lib/startup-floor.mjs\`, that connects to the same PostgreSQL and Redis with the ledger's pg and ioredis before it listens and answers /readyz once both answer), with a production environment (NODE_ENV=production, a migrated database, a Redis prefix of its own; the gateway and the console against a compiled ledger that stays up). _listening_ is from spawn to the service's "listening"/"running" log line, _ready_ to the first 200 from /readyz (polled every 5 ms), _RSS_ the resident memory of the whole process tree 1 s after ready (npx and tsx run the service under helper processes: _processes_ counts them). Medians; the floor's figures are those of the runs interleaved with that service's.`,
    '',
    '| Service | Started with | listening ms | ready ms | RSS MiB | processes | ready / floor | RSS / floor |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map((row) => {
      const floor = floorOf(row.service);
      return `| ${row.service} | ${row.mode} | ${fmt(row.listeningMs)} | ${fmt(row.readyMs)} | ${fmt(row.rssMb)} | ${fmt(row.processes)} | ${floor ? timesOf(row.readyMs, floor.readyMs) : 'n/a'} | ${floor ? timesOf(row.rssMb, floor.rssMb) : 'n/a'} |`;
    }),
    '',
    "**Targets from the deployment** (k8s/base/<service>.yaml, read by the bench): the startup probe asks /healthz every 2 s (30 failures allowed, 60 s) and readiness follows; a service ready within one probe period is taken into service at the first or second probe, so a rolling update or a new replica waits for the probes, not for the service. Its resident memory once ready must fit the memory request the scheduler places it by, with the rest of the limit for the work. The ratios to the floor say how much of the time and memory is the service's own start-up (modules, the app, its pools) rather than Node, the connections and the machine.",
    '',
    goalTable(goals),
    '',
    goalVerdict(goals),
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
