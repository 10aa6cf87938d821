/**
 * Webhook delivery benchmark: events per second that ONE webhook-worker process delivers to a local HTTPS
 * receiver (BullMQ job -> PostgreSQL read -> sign -> got POST -> attempt recorded), paired in the same run
 * with its floor, a plain got loop at the same concurrency (sign + POST, no queue, no database), in rounds whose
 * order alternates. Targets: at least 60% of the plain loop (the ratio, judged on the mean of the rounds), at least
 * 1,500 deliveries/s, every event delivered. The worker runs compiled, as the image runs it
 * (services/webhook-worker/dist/main.js, rebuilt here first when its sources changed).
 *
 * Run: `npm run bench -- webhook-delivery` (on Node 24), or `npx tsx bench/webhook-delivery.bench.ts`. Environment:
 * BENCH_EVENTS (6000), BENCH_CONCURRENCY (50), BENCH_ROUNDS (3), BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md),
 * BENCH_CPU_PROF=<dir>. Prints JSON and rewrites only the section of docs/benchmarks.md between the webhook-delivery
 * markers. Exits 0 when the run completed (a missed goal is reported, not an error).
 * The same file is the plain loop's child: `... webhook-delivery.bench.ts --plain-loop <url> <n> <c> <caFile> <secret>`.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeMarkedSection } from './lib/doc-section.js';
import { goalTable, goalVerdict, percentOf, rangeOf, type Goal } from './lib/goals.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** BENCH_DOC_FILE: write the section to another file (to look at it without touching the docs). */
const DOC = process.env.BENCH_DOC_FILE ?? `${ROOT}docs/benchmarks.md`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 10) throw new Error('BENCH_ROUNDS: a whole number from 1 to 10');

const log = (message: string) => process.stderr.write(`[webhook-delivery ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

/** The slice of got's API the plain loop uses. */
interface PlainGot {
  extend(options: Record<string, unknown>): {
    post(url: string, options: { headers: Record<string, string>; body: string }): Promise<{ statusCode: number }>;
  };
}

async function plainLoop(url: string, total: number, concurrency: number, caFile: string, secret: string): Promise<void> {
  // got is the worker's dependency, not the root's: load the very copy the worker uses.
  const gotPath = createRequire(`${ROOT}services/webhook-worker/package.json`).resolve('got');
  const { default: got } = (await import(pathToFileURL(gotPath).href)) as { default: PlainGot };
  const { buildWebhookHeaders } = await import('../packages/webhook-signing/src/index.js');
  const client = got.extend({
    agent: { https: new Agent({ keepAlive: true, maxSockets: concurrency }) },
    https: { certificateAuthority: readFileSync(caFile, 'utf8') },
    followRedirect: false,
    retry: { limit: 0 },
    throwHttpErrors: false,
    timeout: { request: 10_000 },
  });
  let next = 0;
  let ok = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const eventId = randomUUID();
        const body = JSON.stringify({
          eventId,
          type: 'intent.approved',
          createdAt: new Date().toISOString(),
          data: { intentId: randomUUID(), status: 'APPROVED', amount: '150000', currency: 'TRY' },
        });
        const headers = {
          'content-type': 'application/json',
          ...buildWebhookHeaders({ secrets: [secret], eventId, timestamp: Math.floor(Date.now() / 1000), rawBody: body }),
        };
        const response = await client.post(url, { headers, body });
        if (response.statusCode >= 200 && response.statusCode < 300) ok += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ ok, seconds, perSecond: ok / seconds })}\n`);
}

async function main(): Promise<void> {
  const { createTestEnvironment } = await import('../packages/testkit/src/index.js');
  const { webhookSecretBox } = await import('../packages/secret-box/src/index.js');
  const { generateWebhookSecret } = await import('../packages/webhook-signing/src/index.js');
  const { createPrismaClient } = await import('../packages/db/src/index.js');
  const { createQueueConnection, createWebhookQueue, deliveryJobOptions } = await import('../packages/queue/src/index.js');
  const { makeTestTls, startReceiver } = await import('../services/webhook-worker/test/support/receiver.js');

  const events = Number(process.env.BENCH_EVENTS ?? 6000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
  if (!Number.isInteger(events) || events < 100) throw new Error('BENCH_EVENTS: a whole number of at least 100');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('BENCH_CONCURRENCY: a whole number of at least 1');
  const wallStart = Date.now();
  const startedAt = new Date().toISOString();
  const code = gitState(ROOT);
  const env = await createTestEnvironment({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost' });
  const tls = makeTestTls();
  const receiver = await startReceiver(tls, () => 200);
  const db = createPrismaClient({ connectionString: env.databaseUrl });
  const connection = createQueueConnection(env.config);
  const queue = createWebhookQueue(connection, env.redisPrefix);
  const children: Array<ReturnType<typeof spawn>> = [];
  try {
    const secret = generateWebhookSecret();
    const site = await db.site.create({ data: { slug: 'bench-webhooks', name: 'Bench webhooks', webhookUrl: receiver.url } });
    await db.site.update({
      where: { id: site.id },
      data: { webhookSecretEnc: webhookSecretBox(env.config.secretEncryptionKey).seal(secret, site.id) },
    });

    const runPlain = async (n: number) => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--plain-loop',
          receiver.url,
          String(n),
          String(concurrency),
          tls.caFile,
          secret,
        ],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      children.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await once(child, 'exit');
      return JSON.parse(out.trim()) as { ok: number; seconds: number; perSecond: number };
    };

    // The compiled worker, current with its sources (what the image runs: no TypeScript loader in the way).
    const build = spawn(process.execPath, ['scripts/build.mjs', '--quiet', 'webhook-worker'], { cwd: ROOT, stdio: 'inherit' });
    const [built] = (await once(build, 'exit')) as [number | null];
    if (built !== 0) throw new Error('building the webhook worker failed');
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the worker process there.
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const worker = spawn(process.execPath, [...profile, 'services/webhook-worker/dist/main.js'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        DATABASE_URL: env.databaseUrl,
        REDIS_URL: env.config.redisUrl,
        REDIS_PREFIX: env.redisPrefix,
        WORKER_PORT: '0',
        LOG_LEVEL: 'error',
        WEBHOOK_CA_FILE: tls.caFile,
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
        WEBHOOK_CONCURRENCY: String(concurrency),
        // One partner only: its share of the worker is the whole worker.
        WEBHOOK_SITE_CONCURRENCY: String(concurrency),
      },
    });
    children.push(worker);

    // The worker's CPU time (user + system) from /proc, in ms: CPU per delivery is steadier than deliveries/s
    // on a shared machine, where the worker waits for a core as often as for its work.
    const workerCpuMs = (): number | null => {
      try {
        const fields = readFileSync(`/proc/${worker.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        return null;
      }
    };

    const runWorker = async (n: number) => {
      const rows = Array.from({ length: n }, () => {
        const id = randomUUID();
        const createdAt = new Date();
        const data = { intentId: randomUUID(), status: 'APPROVED', amount: '150000', currency: 'TRY' };
        return {
          id,
          siteId: site.id,
          type: 'intent.approved',
          entityId: data.intentId,
          createdAt,
          payload: { eventId: id, type: 'intent.approved', createdAt: createdAt.toISOString(), data },
        };
      });
      await db.outboxEvent.createMany({ data: rows });
      const before = receiver.deliveries.length;
      const cpuBefore = workerCpuMs();
      const started = performance.now();
      const options = deliveryJobOptions();
      for (let i = 0; i < rows.length; i += 1000) {
        await queue.addBulk(
          rows.slice(i, i + 1000).map((row) => ({ name: 'deliver', data: { eventId: row.id }, opts: { ...options, jobId: row.id } })),
        );
      }
      const deadline = Date.now() + 300_000;
      const ids = rows.map((row) => row.id);
      // Watch the receiver (no load on PostgreSQL while measuring), then confirm every row is DELIVERED.
      const delivered = async () => (await db.outboxEvent.count({ where: { id: { in: ids }, status: 'DELIVERED' } })) >= n;
      while (receiver.deliveries.length - before < n || !(await delivered())) {
        if (Date.now() > deadline) throw new Error('worker did not deliver in time');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = workerCpuMs();
      const cpuMsPerDelivery = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / n;
      return { delivered: n, received: receiver.deliveries.length - before, seconds, perSecond: n / seconds, cpuMsPerDelivery };
    };

    // Warm-up of both sides (JIT, TLS sessions, pools), then the measured pairs, the order alternating each round so
    // a busier moment of the machine does not fall on one side only.
    await runWorker(Math.min(500, events));
    await runPlain(Math.min(500, events));
    const loadAtStart = loadavg().map((value) => Math.round(value * 100) / 100);
    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const workerFirst = round % 2 === 1;
      const first = workerFirst ? await runWorker(events) : await runPlain(events);
      const second = workerFirst ? await runPlain(events) : await runWorker(events);
      const worker = (workerFirst ? first : second) as Round['worker'];
      const plainGotLoop = (workerFirst ? second : first) as Round['plainGotLoop'];
      rounds.push({
        round,
        order: workerFirst ? 'worker first' : 'plain loop first',
        worker,
        plainGotLoop,
        ratio: worker.perSecond / plainGotLoop.perSecond,
      });
      log(`round ${round}: worker ${Math.round(worker.perSecond)}/s, plain loop ${Math.round(plainGotLoop.perSecond)}/s`);
    }
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const result: Result = {
      benchmark: 'webhook-delivery',
      ...runHeader(startedAt, code),
      events,
      concurrency,
      rounds,
      workerPerSecond: mean(rounds.map((r) => r.worker.perSecond)),
      plainPerSecond: mean(rounds.map((r) => r.plainGotLoop.perSecond)),
      ratio: mean(rounds.map((r) => r.ratio)),
      targets: { perSecond: TARGET_PER_SECOND, ratio: TARGET_RATIO },
      load: { start: loadAtStart, end: loadavg().map((value) => Math.round(value * 100) / 100) },
      wallSeconds: (Date.now() - wallStart) / 1000,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (process.env.BENCH_NO_DOCS !== '1') await writeMarkedSection(DOC, 'webhook-delivery', 'Webhook delivery', report(result));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await queue.close();
    connection.disconnect();
    await db.$disconnect();
    await receiver.close();
    tls.cleanup();
    await env.cleanup();
  }
}

const TARGET_PER_SECOND = 1500;
/** The worker's deliveries/s as a share of the plain loop's: what the queue, the database and the bookkeeping may cost. */
const TARGET_RATIO = 0.6;

interface Round {
  round: number;
  order: string;
  worker: { perSecond: number; seconds: number; received: number; cpuMsPerDelivery: number | null };
  plainGotLoop: { ok: number; perSecond: number; seconds: number };
  ratio: number;
}

interface Result extends RunHeader {
  benchmark: 'webhook-delivery';
  events: number;
  concurrency: number;
  rounds: Round[];
  workerPerSecond: number;
  plainPerSecond: number;
  ratio: number;
  targets: { perSecond: number; ratio: number };
  load: { start: number[]; end: number[] };
  wallSeconds: number;
}

function report(r: Result): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const pct = (value: number) => `${Math.round(value * 100)}%`;
  const cpu = r.rounds.map((round) => round.worker.cpuMsPerDelivery).filter((value): value is number => value !== null);
  const goals: Goal[] = [
    {
      goal: `worker deliveries/s >= ${pct(TARGET_RATIO)} of the plain got loop's (mean of ${r.rounds.length} alternating rounds)`,
      measured: `${n(r.workerPerSecond)}/s (rounds: ${rangeOf(
        r.rounds.map((round) => round.worker.perSecond),
        n,
      )})`,
      floor: `${n(r.plainPerSecond)}/s (rounds: ${rangeOf(
        r.rounds.map((round) => round.plainGotLoop.perSecond),
        n,
      )})`,
      ratio: `${pct(r.ratio)} (rounds: ${rangeOf(
        r.rounds.map((round) => round.ratio),
        pct,
      )})`,
      met: r.ratio >= TARGET_RATIO,
    },
    {
      goal: `worker >= ${n(TARGET_PER_SECOND)} deliveries/s (mean of the rounds; on this machine's load, see above)`,
      measured: `${n(r.workerPerSecond)}/s`,
      floor: `${n(r.plainPerSecond)}/s`,
      ratio: percentOf(r.workerPerSecond, r.plainPerSecond),
      met: r.workerPerSecond >= TARGET_PER_SECOND,
    },
    {
      goal: 'every event delivered once and recorded DELIVERED in every round',
      measured: `${n(r.rounds.reduce((sum, round) => sum + round.worker.received, 0))} of ${n(r.events * r.rounds.length)}`,
      met: r.rounds.every((round) => round.worker.received === r.events),
    },
  ];
  const busy = Math.max(r.load.start[0] ?? 0, r.load.end[0] ?? 0) > r.cpus;
  return [
    `Run ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- webhook-delivery\` (${Math.round(r.wallSeconds)} s wall), commit ${r.commit}${r.dirtyFiles > 0 ? ` with ${r.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${r.cpus} CPUs (${r.cpuModel}), Node ${r.node}; load average (1 min) ${r.load.start[0]} when the measured rounds began and ${r.load.end[0]} at their end${busy ? ': **the machine was busy with other work**, so the absolute rates are low; worker and plain loop ran in the same rounds, one after the other, and compare with each other' : ''}.`,
    '',
    `**Method:** ${n(r.events)} events of one site inserted into \`outbox_events\`, then enqueued (jobId = eventId); one webhook-worker process (the compiled \`node services/webhook-worker/dist/main.js\`, WEBHOOK_CONCURRENCY=${r.concurrency}, per-site limit lifted to the same, since one partner is all there is) delivers them to an HTTPS receiver on 127.0.0.1 (its own CA, keep-alive, answers 200 at once). Time runs from the first enqueue until every row is DELIVERED in PostgreSQL, so each delivery includes the job fetch, the event read, the signature, the POST and the attempt write. **The floor** is a plain loop in a process of its own: got 14 (the worker's copy) at the same concurrency, signing and POSTing the same shape of body to the same receiver, with no queue and no database. One warm-up of 500 for each side, then ${r.rounds.length} rounds, the order of the two alternating; receiver, PostgreSQL, Redis, worker and loop share the machine.`,
    '',
    '| Round | Order | Worker deliveries/s | Plain loop deliveries/s | Worker / plain loop | Worker CPU ms per delivery |',
    '|---:|---|---:|---:|---:|---:|',
    ...r.rounds.map(
      (round) =>
        `| ${round.round} | ${round.order} | ${n(round.worker.perSecond)} (${round.worker.seconds.toFixed(1)} s) | ${n(round.plainGotLoop.perSecond)} (${round.plainGotLoop.seconds.toFixed(1)} s) | ${pct(round.ratio)} | ${round.worker.cpuMsPerDelivery === null ? 'n/a' : round.worker.cpuMsPerDelivery.toFixed(3)} |`,
    ),
    '',
    `Worker CPU per delivery (user + system, from /proc): ${cpu.length === 0 ? 'not measured' : `${rangeOf(cpu, (value) => value.toFixed(3))} ms, so one core delivers at most about ${n(1000 / Math.max(...cpu))}/s`}: steadier than deliveries/s on a shared machine, where the worker waits for a core as often as for its work.`,
    '',
    goalTable(goals),
    '',
    goalVerdict(goals),
  ].join('\n');
}

if (process.argv[2] === '--plain-loop') {
  const [, , , url, total, concurrency, caFile, secret] = process.argv;
  await plainLoop(url as string, Number(total), Number(concurrency), caFile as string, secret as string);
} else {
  await main();
}
