/**
 * Webhook delivery benchmark: events per second that ONE webhook-worker process delivers to a local HTTPS
 * receiver (BullMQ job -> PostgreSQL read -> sign -> got POST -> attempt recorded), paired in the same run
 * with a plain got loop at the same concurrency (sign + POST, no queue, no database).
 * Targets: at least 1,500 deliveries/s, and at least 60% of the plain loop. The worker runs compiled, as the image
 * runs it (services/webhook-worker/dist/main.js, rebuilt here first when its sources changed).
 *
 * Run: `npx tsx bench/webhook-delivery.bench.ts` (env BENCH_EVENTS, BENCH_CONCURRENCY). Prints JSON and
 * rewrites only the section of docs/benchmarks.md between the webhook-delivery markers.
 * The same file is the plain loop's child: `... webhook-delivery.bench.ts --plain-loop <url> <n> <c> <caFile> <secret>`.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = `${ROOT}docs/benchmarks.md`;
const START = '<!-- webhook-delivery:start -->';
const END = '<!-- webhook-delivery:end -->';

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
  const wallStart = Date.now();
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

    // Warm-up of both sides (JIT, TLS sessions, pools), then the measured pair back to back.
    await runWorker(Math.min(500, events));
    await runPlain(Math.min(500, events));
    const load = loadavg()[0] ?? 0;
    const workerRun = await runWorker(events);
    const plainRun = await runPlain(events);
    const ratio = workerRun.perSecond / plainRun.perSecond;
    const result = {
      benchmark: 'webhook-delivery',
      events,
      concurrency,
      worker: workerRun,
      plainGotLoop: plainRun,
      ratio,
      targets: { perSecond: TARGET_PER_SECOND, ratio: 0.6 },
      pass: workerRun.perSecond >= TARGET_PER_SECOND && ratio >= 0.6,
      cpus: availableParallelism(),
      loadAverage: load,
      wallSeconds: (Date.now() - wallStart) / 1000,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    writeSection(report(result));
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

interface Result {
  events: number;
  loadAverage: number;
  concurrency: number;
  worker: { perSecond: number; seconds: number; received: number; cpuMsPerDelivery: number | null };
  plainGotLoop: { perSecond: number; seconds: number };
  ratio: number;
  pass: boolean;
  cpus: number;
  wallSeconds: number;
}

function report(r: Result): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  return [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC with \`npx tsx bench/webhook-delivery.bench.ts\` (${Math.round(r.wallSeconds)} s wall), ${r.cpus} CPUs, Node ${process.version}, 1-minute load average ${r.loadAverage.toFixed(1)} when the measured run began (other work on the machine shares the CPUs).`,
    '',
    `**Method:** ${n(r.events)} events of one site inserted into \`outbox_events\`, then enqueued (jobId = eventId); one webhook-worker process (the compiled \`node services/webhook-worker/dist/main.js\`, WEBHOOK_CONCURRENCY=${r.concurrency}, per-site limit lifted to the same, since one partner is all there is) delivers them to an HTTPS receiver on 127.0.0.1 (its own CA, keep-alive, answers 200 at once). Time runs from the first enqueue until every row is DELIVERED in PostgreSQL, so each delivery includes the job fetch, the event read, the signature, the POST and the attempt write. The plain loop is a separate process running got 14 with the same concurrency, signing and POSTing the same shape of body to the same receiver, with no queue and no database. One warm-up round of 500 for each side first; receiver, PostgreSQL, Redis, worker and loop share the machine.`,
    '',
    ...table(
      ['Side', 'deliveries', 'seconds', 'deliveries/s'],
      [
        ['webhook worker', n(r.events), r.worker.seconds.toFixed(1), n(r.worker.perSecond)],
        ['plain got loop', n(r.events), r.plainGotLoop.seconds.toFixed(1), n(r.plainGotLoop.perSecond)],
      ],
    ),
    '',
    `Worker CPU per delivery (user + system, from /proc): ${r.worker.cpuMsPerDelivery === null ? 'not measured' : `${r.worker.cpuMsPerDelivery.toFixed(3)} ms, so one core delivers at most about ${n(1000 / r.worker.cpuMsPerDelivery)}/s`}.`,
    '',
    `Worker / plain loop: **${Math.round(r.ratio * 100)}%**. Targets: at least ${n(TARGET_PER_SECOND)} deliveries/s (${r.worker.perSecond >= TARGET_PER_SECOND ? 'pass' : 'FAIL'}) and at least 60% of the plain loop (${r.ratio >= 0.6 ? 'pass' : 'FAIL'}).`,
  ].join('\n');
}

/** A Markdown table as Prettier lays it out (first column left, the others right-aligned), so the doc stays formatted. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((width, i) => (i === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)];
}

function writeSection(body: string): void {
  const section = `${START}\n\n${body.trim()}\n${END}`;
  const text = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start !== -1 && end > start) {
    writeFileSync(DOC, text.slice(0, start) + section + text.slice(end + END.length));
  } else {
    writeFileSync(DOC, `${text.replace(/\s*$/, '')}\n\n## Webhook delivery\n\n${section}\n`);
  }
}

if (process.argv[2] === '--plain-loop') {
  const [, , , url, total, concurrency, caFile, secret] = process.argv;
  await plainLoop(url as string, Number(total), Number(concurrency), caFile as string, secret as string);
} else {
  await main();
}
