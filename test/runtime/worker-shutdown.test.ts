/**
 * The compiled webhook worker, started as its container starts it, stopped with SIGTERM while deliveries to a
 * slow receiver are in flight: it lets them finish and exits 0 within its grace, or, when the receiver hangs
 * past the grace, gives up and exits 1 within it; either way a second worker started afterwards delivers
 * every event (no job lost).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { expectStatus, Scenario } from '@kasa/testkit';
import {
  ensureBuilt,
  killLeftovers,
  migrate,
  productionEnvironment,
  startCompiled,
  waitFor,
  type LogLine,
  type ProductionEnvironment,
  type RunningService,
} from './support.js';

const GRACE_MS = 5_000;
// What Compose and Kubernetes leave beyond SHUTDOWN_GRACE_MS before they kill (docs/configuration.md): the process must
// be gone within it. A loaded CI machine took 1.4 s past the grace to close its connections and exit.
const STOP_MARGIN_MS = 5_000;
const EVENTS = 16;

/** A plain-HTTP webhook receiver on 127.0.0.1 that answers 200 after `delayMs`, or never while `hang` is set. */
interface Receiver {
  url: string;
  delayMs: number;
  hang: boolean;
  /** Event ids of the requests answered 200. */
  answered: string[];
  /** Requests received and not yet answered (or dropped). */
  inFlight: number;
  /** Requests whose connection closed before their answer was sent. */
  dropped: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { delayMs: 0, hang: false, answered: [] as string[], inFlight: 0, dropped: 0 } as Receiver;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const eventId = String(req.headers['service-event-id'] ?? '');
    receiver.inFlight += 1;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      receiver.inFlight -= 1;
      return true;
    };
    res.on('close', () => {
      if (!res.writableFinished && settle()) receiver.dropped += 1;
    });
    req.resume();
    req.on('end', () => {
      if (receiver.hang) return;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok', () => {
          if (settle()) receiver.answered.push(eventId);
        });
      }, receiver.delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/kasa`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

let environment: ProductionEnvironment;
let ledger: RunningService;
let scenario: Scenario;
let receiver: Receiver;
let db: pg.Pool;

beforeAll(async () => {
  ensureBuilt();
  environment = productionEnvironment({
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    // The receiver is plain HTTP on the loopback: allowed for this test only (docs/configuration.md).
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_CONCURRENCY: '8',
    WEBHOOK_SITE_CONCURRENCY: '8',
    WEBHOOK_TIMEOUT_MS: '20000',
    WEBHOOK_RETRY_DELAY_MS: '200',
    // A job whose worker went away returns to the queue after its lock expires: quick here.
    WEBHOOK_LOCK_DURATION_MS: '2000',
    WEBHOOK_STALLED_INTERVAL_MS: '1000',
  });
  await migrate(environment.env);
  ledger = await startCompiled('ledger', environment.env);
  scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: environment.env.OPS_BOOTSTRAP_TOKEN!,
    internalToken: environment.env.INTERNAL_TOKEN!,
  });
  await scenario.createReceivingAccount();
  receiver = await startReceiver();
  db = new pg.Pool({ connectionString: environment.databaseUrl, max: 2 });
}, 60_000);

afterAll(async () => {
  killLeftovers();
  await db?.end();
  await receiver?.close();
  await environment?.cleanup();
});

/** A site whose webhook URL is the receiver, with `count` approved deposits: `count` intent.approved events queued. */
async function siteWithEvents(count: number): Promise<{ siteId: string; eventIds: string[] }> {
  const { siteId } = await scenario.createSite();
  const { apiKeyId } = await scenario.issueApiKey(siteId);
  expectStatus(
    await scenario.internal('PUT', `/sites/${siteId}/webhook-config`, { apiKeyId, request: { webhookUrl: receiver.url } }),
    200,
    'webhook config',
  );
  for (let i = 0; i < count; i += 1) await scenario.fund(siteId, '150000');
  const { rows } = await db.query<{ id: string }>('SELECT id FROM outbox_events WHERE site_id = $1', [siteId]);
  expect(rows).toHaveLength(count);
  return { siteId, eventIds: rows.map((row) => row.id) };
}

async function statuses(siteId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM outbox_events WHERE site_id = $1 GROUP BY status',
    [siteId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

function stopLines(worker: RunningService): { stopping: LogLine; stopped: LogLine } {
  const stopping = worker.logs.find((line) => line.message === 'webhook-worker stopping');
  const stopped = worker.logs.find((line) => line.message === 'webhook-worker stopped');
  if (!stopping || !stopped) throw new Error(`no stopping/stopped log lines: ${JSON.stringify(worker.logs)}`);
  return { stopping, stopped };
}

/** A second worker delivers every event of the site; returns when all are DELIVERED, then stops it cleanly. */
async function secondWorkerDeliversAll(siteId: string, eventIds: string[]): Promise<void> {
  const second = await startCompiled('webhook-worker', environment.env);
  await waitFor(`all ${eventIds.length} events DELIVERED`, async () => (await statuses(siteId)).DELIVERED === eventIds.length, 30_000, 100);
  const exit = await second.terminate();
  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(new Set(receiver.answered.filter((id) => eventIds.includes(id)))).toEqual(new Set(eventIds));
}

describe('compiled webhook worker stopped by SIGTERM with deliveries in flight', () => {
  it('lets in-flight deliveries finish, exits 0 within the grace, and the next worker delivers the rest', async () => {
    const { siteId, eventIds } = await siteWithEvents(EVENTS);
    receiver.delayMs = 1_500;
    const first = await startCompiled('webhook-worker', environment.env);
    await waitFor('deliveries in flight', () => receiver.inFlight >= 1);
    const answeredBefore = receiver.answered.length;

    const exit = await first.terminate();
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(GRACE_MS + STOP_MARGIN_MS);
    const { stopping, stopped } = stopLines(first);
    expect(stopping).toMatchObject({ signal: 'SIGTERM', graceMs: GRACE_MS });
    expect(stopped).toMatchObject({ forced: false, exitCode: 0 });
    // The deliveries in flight were answered and recorded, none cut off.
    expect(receiver.dropped).toBe(0);
    expect(receiver.inFlight).toBe(0);
    const finishedDuringStop = receiver.answered.length - answeredBefore;
    expect(finishedDuringStop).toBeGreaterThanOrEqual(1);
    const after = await statuses(siteId);
    expect(after.DELIVERED).toBe(receiver.answered.filter((id) => eventIds.includes(id)).length);
    expect(after.DEAD ?? 0).toBe(0);
    expect(after.PENDING).toBeGreaterThan(0);

    receiver.delayMs = 0;
    await secondWorkerDeliversAll(siteId, eventIds);
    process.stderr.write(
      `webhook-worker: started in ${Math.round(first.startupMs)} ms; SIGTERM to exit ${exit.afterMs} ms with ${finishedDuringStop} deliveries finishing\n`,
    );
  }, 60_000);

  it('gives up on a receiver that hangs past the grace: exits 1 within it, and the jobs go back to the queue', async () => {
    const { siteId, eventIds } = await siteWithEvents(4);
    receiver.hang = true;
    const first = await startCompiled('webhook-worker', environment.env);
    await waitFor('a delivery hanging', () => receiver.inFlight >= 1);

    const exit = await first.terminate();
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.afterMs).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(exit.afterMs).toBeLessThan(GRACE_MS + STOP_MARGIN_MS);
    expect(stopLines(first).stopped).toMatchObject({ forced: true, exitCode: 1 });
    expect(await statuses(siteId)).toEqual({ PENDING: 4 });

    receiver.hang = false;
    await secondWorkerDeliversAll(siteId, eventIds);
  }, 60_000);
});
