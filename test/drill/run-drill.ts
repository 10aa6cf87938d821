/**
 * The failover drill (`npm run drill`, and test/drill/drill.test.ts with a short budget): the compiled gateway,
 * ledger and webhook worker with production settings over a PostgreSQL primary with a synchronous standby and a
 * Redis Cluster of three masters with a replica each, a webhook receiver over HTTPS with a CA made here, and
 * partner and operator traffic at about `rps` requests a second. Faults in turn, each followed by a settle
 * period: kill -9 of the gateway, the ledger and the worker (each restarted at once), of the PostgreSQL primary
 * (the standby promoted, the services finding it through their multi-host DATABASE_URL) and of the Redis
 * master that serves the queues (its replica promoted by the cluster). Then every acknowledged write is
 * checked, and every event waited for at the receiver.
 */
import { spawnSync } from 'node:child_process';
import { ensureDatabase, migrate } from '@kasa/db';
import { expectStatus, httpJson, productionEnvironment, Scenario } from '@kasa/testkit';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from '../../services/webhook-worker/test/support/receiver.js';
import { startPostgresPair, type PostgresPair } from './postgres-pair.js';
import { startDrillRedisCluster, type DrillRedisCluster } from './redis-cluster.js';
import { faultRows, markdownTable, type Fault, type FaultRow, type PhaseWindow } from './report.js';
import { DrillServices, SERVICES } from './services.js';
import { STRAIGHT_THROUGH_MAX, Traffic, type Attempt } from './traffic.js';
import { freePort, sleep } from './wait.js';
import { verify, type Verification } from './verify.js';

export const FAULTS: readonly Fault[] = ['gateway', 'ledger', 'webhook-worker', 'postgres', 'redis'];

export interface DrillOptions {
  rps: number;
  /** Traffic before the first fault. */
  baselineMs: number;
  /** How long traffic runs from each fault to the next (the fault's own action included). */
  settleMs: Record<Fault, number>;
  /** How long to wait after the traffic for every recorded event to reach the receiver. */
  eventsDeadlineMs: number;
  /** The Redis Cluster's `cluster-node-timeout`: how long a master may be silent before its replica takes over. */
  redisNodeTimeoutMs: number;
  /** How long after the primary dies the standby is promoted (what an HA manager takes to decide). */
  promoteAfterMs: number;
  log: (line: string) => void;
}

export interface DrillResult {
  rows: FaultRow[];
  table: string;
  verification: Verification;
  requests: number;
  acknowledged: number;
  skipped: number;
  maxInFlight: number;
  /** Requests answered per second of traffic, on average. */
  achievedRps: number;
  baselineFailures: number;
  durationMs: number;
  /** Services whose /readyz did not answer 200 after the traffic, with their last answer. */
  notReady: string[];
  /** Services that exited without the drill killing them (a crash), with their last error lines and stderr. */
  crashes: string[];
}

const REDIS_PREFIX = 'kasa_drill';
const DATABASE = 'kasa_drill';

/** What is running, so `cleanupDrill` can stop it whatever failed. */
const cleanups: (() => Promise<void> | void)[] = [];

/** Stops every process and engine the drill started (in reverse order); safe to call twice. */
export async function cleanupDrill(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop()!;
    await Promise.resolve()
      .then(step)
      .catch(() => undefined);
  }
}

function ensureBuilt(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`drill: npm run build failed:\n${build.stderr}`);
}

interface Seeded {
  siteId: string;
  apiKey: string;
  accountId: string;
  reviewerToken: string;
}

/** A site with a key, straight-through approval up to STRAIGHT_THROUGH_MAX, a webhook to the receiver, a reviewer, and money to pay out. */
async function seed(services: DrillServices, env: Record<string, string>, receiver: Receiver): Promise<Seeded> {
  const ledgerUrl = services.url('ledger');
  const adminToken = env.OPS_BOOTSTRAP_TOKEN!;
  const scenario = new Scenario({ ledgerUrl, opsToken: adminToken, internalToken: env.INTERNAL_TOKEN!, slugPrefix: 'drill' });
  const account = await scenario.createReceivingAccount();
  const accountId = (account.body as { id: string }).id;
  const site = await scenario.createSite({ rateLimitPerMinute: 100_000 });
  const { apiKey } = await scenario.issueApiKey(site.siteId);
  const autoApprove = { enabled: true, maxAmount: String(STRAIGHT_THROUGH_MAX), requireSenderMatch: false };
  expectStatus(await scenario.ops('PATCH', `/sites/${site.siteId}`, { autoApprove }), 200, 'straight-through rule');
  const partner = { authorization: `Bearer ${apiKey}` };
  const gatewayUrl = `${services.url('gateway')}/api/v1/external`;
  expectStatus(await httpJson(`${gatewayUrl}/site/webhook-config`, 'PUT', partner, { webhookUrl: receiver.url }), 200, 'webhook');
  const reviewer = await scenario.createOperator('REVIEWER');
  const reviewerToken = await scenario.login(reviewer);
  // Money for the withdrawals to be approved from: one large deposit, paid and approved.
  const funding = expectStatus(
    await httpJson(
      `${gatewayUrl}/deposits`,
      'POST',
      { ...partner, 'idempotency-key': `fund-${site.siteId}` },
      {
        externalUserId: 'drill-funding',
        amount: '100000000',
      },
    ),
    201,
    'funding deposit',
  ).body as { intentId: string; referenceNo: string };
  const line = {
    bankTxId: `fund-${site.siteId}`,
    direction: 'credit',
    amount: '100000000',
    currency: 'TRY',
    receivedAt: new Date().toISOString(),
    senderName: 'Kasa Drill',
    senderIban: '',
    description: `Havale ${funding.referenceNo}`,
  };
  expectStatus(await scenario.ops('POST', `/receiving-accounts/${accountId}/lines`, { lines: [line] }), 201, 'funding line');
  await scenario.approveDeposit(funding.intentId);
  return { siteId: site.siteId, apiKey, accountId, reviewerToken };
}

/** Statuses counted, and each kind of failure with when it came first and last (seconds after `at`). */
function describeAnswers(attempts: Attempt[], at: number): string {
  const statuses = new Map<number, number>();
  const failures = new Map<string, { n: number; first: number; last: number }>();
  for (const attempt of attempts) {
    statuses.set(attempt.status, (statuses.get(attempt.status) ?? 0) + 1);
    if (attempt.status !== 0 && attempt.status < 500) continue;
    const name = `${attempt.kind} ${attempt.status} ${attempt.error ?? ''}`;
    const seen = failures.get(name) ?? { n: 0, first: Infinity, last: -Infinity };
    failures.set(name, { n: seen.n + 1, first: Math.min(seen.first, attempt.sentAt - at), last: Math.max(seen.last, attempt.doneAt - at) });
  }
  const failed = [...failures].map(
    ([name, { n, first, last }]) => `${name} ×${n} (${(first / 1000).toFixed(1)}-${(last / 1000).toFixed(1)} s)`,
  );
  return `statuses ${JSON.stringify(Object.fromEntries(statuses))}${failed.length > 0 ? `; failures: ${failed.join('; ')}` : ''}`;
}

export async function runDrill(options: DrillOptions): Promise<DrillResult> {
  const { log } = options;
  const startedAt = Date.now();
  try {
    ensureBuilt();
    const tls: TestTls = makeTestTls();
    cleanups.push(() => tls.cleanup());
    const receiver = await startReceiver(tls);
    cleanups.push(() => receiver.close());
    const postgres: PostgresPair = await startPostgresPair(DATABASE);
    cleanups.push(() => postgres.destroy());
    await ensureDatabase(postgres.writableUrl());
    await migrate(postgres.writableUrl());
    const redis: DrillRedisCluster = await startDrillRedisCluster(options.redisNodeTimeoutMs);
    cleanups.push(() => redis.stop());
    log(
      `engines: PostgreSQL ${postgres.primary.port} + synchronous standby ${postgres.standby.port}; Redis Cluster ${redis.cluster.nodesEnv}`,
    );

    const ports = { ledger: await freePort(), gateway: await freePort(), 'webhook-worker': await freePort() };
    const { env } = productionEnvironment({
      DATABASE_URL: postgres.databaseUrl,
      REDIS_CLUSTER_NODES: redis.cluster.nodesEnv,
      REDIS_PREFIX,
      LEDGER_URL: `http://127.0.0.1:${ports.ledger}`,
      WEBHOOK_CA_FILE: tls.caFile,
      WEBHOOK_ALLOWED_HOSTS: 'localhost,127.0.0.1',
      // A job lost with a Redis master (replication is asynchronous) is found again by the relay after this.
      OUTBOX_RELAY_LOST_JOB_AFTER_MS: '10000',
    });
    const services = new DrillServices(env, ports, log);
    cleanups.push(() => services.stopAll());
    for (const name of SERVICES) await services.start(name);
    const seeded = await seed(services, env, receiver);
    log(`services: ledger ${ports.ledger}, gateway ${ports.gateway}, worker ${ports['webhook-worker']}; site ${seeded.siteId}`);

    const traffic = new Traffic(
      {
        gatewayUrl: services.url('gateway'),
        ledgerUrl: services.url('ledger'),
        apiKey: seeded.apiKey,
        reviewerToken: seeded.reviewerToken,
        connectorToken: env.OPS_BOOTSTRAP_TOKEN!,
        accountId: seeded.accountId,
      },
      options.rps,
    );
    cleanups.push(() => traffic.stop());
    const running = traffic.run();
    const trafficFrom = Date.now();
    await sleep(options.baselineMs);
    log(`baseline: ${describeAnswers(traffic.attempts, trafficFrom)}`);

    const phases: PhaseWindow[] = [];
    for (const fault of FAULTS) {
      const at = Date.now();
      traffic.phase = fault;
      let note = '';
      if (fault === 'postgres') {
        await postgres.killPrimary();
        await sleep(options.promoteAfterMs);
        await postgres.promoteStandby();
        note = `standby promoted ${((Date.now() - at) / 1000).toFixed(1)} s after the kill`;
      } else if (fault === 'redis') {
        const key = `${REDIS_PREFIX}:{bull}`;
        const master = await redis.masterOf(key);
        await redis.kill(master);
        await redis.waitFailover(key, master, options.redisNodeTimeoutMs * 4 + 10_000);
        note = `replica serving the queues' slot ${((Date.now() - at) / 1000).toFixed(1)} s after the kill`;
      } else {
        const restartMs = await services.killAndRestart(fault);
        note = `back in ${(restartMs / 1000).toFixed(1)} s`;
      }
      const actionMs = Date.now() - at;
      log(`${fault}: ${note}`);
      await sleep(Math.max(0, at + options.settleMs[fault] - Date.now()));
      phases.push({ fault, at, until: Date.now(), actionMs, note });
      const attempts = traffic.attempts.filter((attempt) => attempt.phase === fault);
      log(`${fault}: ${attempts.length} requests, ${describeAnswers(attempts, at)}`);
    }
    traffic.stop();
    await running;
    const trafficUntil = Date.now();
    const notReady: string[] = [];
    for (const name of SERVICES) {
      const answer = await services.readiness(name, 30_000);
      if (answer !== null) notReady.push(`${name} not ready 30 s after the traffic: ${answer}`);
    }
    notReady.forEach((line) => log(line));

    const phaseAt = (moment: number) => phases.findLast((phase) => moment >= phase.at)?.fault ?? 'baseline';
    const verification = await verify(traffic, {
      gatewayUrl: services.url('gateway'),
      apiKey: seeded.apiKey,
      siteId: seeded.siteId,
      databaseUrl: postgres.writableUrl(),
      deliveries: () => {
        const counts = new Map<string, number>();
        for (const { eventId } of receiver.deliveries) if (eventId) counts.set(eventId, (counts.get(eventId) ?? 0) + 1);
        return counts;
      },
      phaseAt,
      eventsDeadlineMs: options.eventsDeadlineMs,
      jobOf: (eventId) => queueJobOf(redis, eventId),
    });
    verification.events.undeliveredWhy.forEach((line) => log(`undelivered: ${line}`));
    // What the services warned of: where an event stopped is often in the relay's or the worker's warnings.
    if (verification.events.undelivered.length > 0) services.warnings().forEach((line) => log(`logged: ${line}`));
    const rows = faultRows(traffic, phases, verification);
    return {
      rows,
      table: markdownTable(rows),
      verification,
      requests: traffic.attempts.length,
      acknowledged: traffic.creates.size + traffic.lines.length + traffic.approvals.length,
      skipped: traffic.skipped,
      maxInFlight: traffic.maxInFlight,
      achievedRps: traffic.attempts.length / ((trafficUntil - trafficFrom) / 1000),
      baselineFailures: traffic.attempts.filter((a) => a.phase === 'baseline' && (a.status === 0 || a.status >= 500)).length,
      durationMs: Date.now() - startedAt,
      notReady,
      crashes: [...services.crashes],
    };
  } finally {
    await cleanupDrill();
  }
}

/**
 * The state of an event's first delivery job, read straight from the queue's keys on the master of their slot
 * (BullMQ's layout: a hash per job, a list or sorted set per state).
 */
async function queueJobOf(redis: DrillRedisCluster, eventId: string): Promise<string> {
  const base = `${REDIS_PREFIX}:{bull}:webhook-deliveries`;
  const master = await redis.masterOf(base);
  const call = (...command: [string, ...string[]]) => redis.cluster.call(master, ...command);
  const job = (await call('HGETALL', `${base}:${eventId}`)) as string[];
  if (job.length === 0) return 'no job';
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < job.length; i += 2) fields.set(job[i]!, job[i + 1]!);
  const states: string[] = [];
  for (const state of ['wait', 'active', 'paused']) {
    if ((await call('LPOS', `${base}:${state}`, eventId)) !== null) states.push(state);
  }
  for (const state of ['delayed', 'prioritized', 'completed', 'failed', 'waiting-children']) {
    const score = await call('ZSCORE', `${base}:${state}`, eventId);
    if (score !== null)
      states.push(state === 'delayed' ? `delayed (${Math.round((Number(score) / 4096 - Date.now()) / 1000)} s left)` : state);
  }
  const failed = fields.get('failedReason');
  return `job ${states.join('+') || 'in no state'}, attemptsMade ${fields.get('atm') ?? fields.get('attemptsMade') ?? '0'}, stalled ${fields.get('stc') ?? '0'}${failed ? `, failed: ${failed.slice(0, 120)}` : ''}`;
}
