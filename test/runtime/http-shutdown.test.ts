/**
 * The compiled HTTP services, started as their containers start them, stopped with SIGTERM under a burst of
 * keep-alive requests: each exits 0 within its shutdown grace, every request it accepted gets a whole
 * response (with `Connection: close` once the drain began), and no connection it accepted is reset.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import pg from 'pg';
import { Scenario } from '@kasa/testkit';
import {
  burst,
  ensureBuilt,
  killLeftovers,
  migrate,
  productionEnvironment,
  sleep,
  startCompiled,
  startDelayProxy,
  tally,
  waitFor,
  type DelayProxy,
  type LogLine,
  type Outcome,
  type ProductionEnvironment,
  type RunningService,
} from './support.js';

const GRACE_MS = 5_000;
// What Compose and Kubernetes leave beyond SHUTDOWN_GRACE_MS before they kill (docs/configuration.md): the process must
// be gone within it. A loaded CI machine has taken 1.4 s past the grace to close connections and exit.
const STOP_MARGIN_MS = 5_000;
const CLIENTS = 50;

let environment: ProductionEnvironment;
let ledger: RunningService;
let scenario: Scenario;

beforeAll(async () => {
  ensureBuilt();
  environment = productionEnvironment({ SHUTDOWN_GRACE_MS: String(GRACE_MS) });
  const migrated = await migrate(environment.env);
  expect(migrated.databaseCreated).toBe(true);
  expect(migrated.applied.length).toBeGreaterThan(0);
  ledger = await startCompiled('ledger', environment.env);
  scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: environment.env.OPS_BOOTSTRAP_TOKEN!,
    internalToken: environment.env.INTERNAL_TOKEN!,
  });
}, 60_000);

afterAll(async () => {
  killLeftovers();
  await environment?.cleanup();
});

/** The stopping and stopped log lines of a service. */
function stopLines(service: RunningService, name: string): { stopping: LogLine; stopped: LogLine } {
  const stopping = service.logs.find((line) => line.message === `${name} stopping`);
  const stopped = service.logs.find((line) => line.message === `${name} stopped`);
  if (!stopping || !stopped) throw new Error(`${name}: no stopping/stopped log lines in ${JSON.stringify(service.logs)}`);
  return { stopping, stopped };
}

/** Sends the first half of GET /readyz on a fresh connection; `finish()` sends the rest and reads the answer. */
async function halfSentReadiness(port: number): Promise<{ finish(): Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  return {
    async finish() {
      socket.end('Connection: keep-alive\r\n\r\n');
      await ended;
      return text;
    },
  };
}

const completed = (outcomes: Outcome[], path: string) => outcomes.filter((o) => o.kind === 'complete' && o.path === path).length;

/** What every drain must show, whatever the service. */
function expectCleanDrain(outcomes: Outcome[], stoppingAt: number): void {
  // Nothing cut short and nothing left hanging.
  expect(outcomes.filter((o) => o.kind === 'failed')).toEqual([]);
  // A request is reset unread only when the listener or the idle connections close, at the start of the
  // drain or at the end of its idle linger (at most one per client: it then finds the server gone), never
  // later while requests finish. (With the linger there are normally none.)
  const unanswered = outcomes.filter((o) => o.kind === 'unanswered');
  expect(unanswered.length).toBeLessThanOrEqual(CLIENTS);
  expect(unanswered.filter((o) => o.doneAt < stoppingAt - 50 || o.doneAt > stoppingAt + 1_000)).toEqual([]);
  for (const outcome of outcomes.filter((o) => o.kind === 'complete')) {
    expect([outcome.path, outcome.status]).toEqual([outcome.path, 200]);
  }
  // Every request sent after the drain began is answered with `Connection: close`. (Judged by when the client
  // sent it, not when it saw the answer: on a loaded machine a client may read an answer written before the
  // drain well after it began.)
  const late = outcomes.filter((o) => o.kind === 'complete' && o.sentAt > stoppingAt + 20);
  for (const outcome of late) expect([outcome.path, outcome.headers?.connection]).toEqual([outcome.path, 'close']);
}

describe('compiled services stopped by SIGTERM under keep-alive load', () => {
  let proxy: DelayProxy | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it('gateway: answers every request it took (through a slow ledger) and exits 0 within the grace', async () => {
    await scenario.createReceivingAccount();
    const site = await scenario.createSite({ rateLimitPerMinute: 100_000 });
    const { apiKey } = await scenario.issueApiKey(site.siteId);
    const intent = await scenario.createDeposit(site.siteId, '150000');
    // Every ledger call the gateway makes waits 300 ms here, so requests are surely in flight at SIGTERM,
    // and the proxy's record of X-Request-Id says exactly which requests the gateway accepted.
    proxy = await startDelayProxy(ledger.url, 300);
    const gateway = await startCompiled('gateway', { ...environment.env, LEDGER_URL: proxy.url });
    expect(gateway.startupMs).toBeGreaterThan(0);

    const lookup = `/api/v1/external/intents/${intent.intentId}`;
    const auth = { authorization: `Bearer ${apiKey}` };
    const load = burst(gateway.url, CLIENTS, (client, n) =>
      (client + n) % 2 === 0 ? { path: '/healthz' } : { path: lookup, headers: auth },
    );
    await waitFor('the load to be under way', () => completed(load.outcomes, lookup) > CLIENTS, 30_000);
    const probe = await halfSentReadiness(gateway.port);
    await sleep(100);

    const stop = gateway.terminate();
    await sleep(150);
    const readiness = await probe.finish();
    const exit = await stop;
    await load.done;

    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(GRACE_MS + STOP_MARGIN_MS);
    const { stopping, stopped } = stopLines(gateway, 'gateway');
    expect(stopping).toMatchObject({ signal: 'SIGTERM', graceMs: GRACE_MS });
    expect(stopped).toMatchObject({ forced: false, exitCode: 0 });
    expect(stopped.durationMs).toBeLessThan(GRACE_MS);

    // /readyz turned 503 at once, on a connection the drain had to let finish.
    expect(readiness).toMatch(/^HTTP\/1\.1 503 /);
    expect(readiness.toLowerCase()).toContain('connection: close');
    expect(readiness).toContain('"shutdown":"stopping"');

    const stoppingAt = Date.parse(stopping.timestamp);
    expectCleanDrain(load.outcomes, stoppingAt);
    // Every request whose ledger call reached the proxy was accepted by the gateway: each got its answer.
    const accepted = load.outcomes.filter((o) => proxy!.seen.has(o.requestId));
    expect(accepted.length).toBe(proxy.seen.size);
    expect(accepted.filter((o) => o.kind !== 'complete' || o.status !== 200)).toEqual([]);
    // Some of them were in flight when SIGTERM came and were answered during the drain.
    expect(accepted.filter((o) => o.sentAt < stoppingAt && o.doneAt > stoppingAt).length).toBeGreaterThan(0);
    process.stderr.write(
      `gateway: started in ${Math.round(gateway.startupMs)} ms; SIGTERM to exit ${exit.afterMs} ms (logged ${String(stopped.durationMs)} ms); ${JSON.stringify(tally(load.outcomes))}\n`,
    );
  }, 60_000);

  it('console: exits 0 within the grace under keep-alive load', async () => {
    const consoleService = await startCompiled('console', { ...environment.env, LEDGER_URL: ledger.url });
    const load = burst(consoleService.url, CLIENTS, (client, n) => ({ path: (client + n) % 2 === 0 ? '/healthz' : '/login' }));
    await waitFor('the load to be under way', () => completed(load.outcomes, '/login') > CLIENTS, 30_000);
    const exit = await consoleService.terminate();
    await load.done;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(GRACE_MS + STOP_MARGIN_MS);
    const { stopping, stopped } = stopLines(consoleService, 'console');
    expect(stopped).toMatchObject({ forced: false, exitCode: 0 });
    expectCleanDrain(load.outcomes, Date.parse(stopping.timestamp));
  }, 60_000);

  it('ledger: answers the requests held up in PostgreSQL at SIGTERM, then exits 0 within the grace', async () => {
    const site = await scenario.createSite();
    const intent = await scenario.createDeposit(site.siteId, '150000');
    const lookup = `/internal/v1/sites/${site.siteId}/intents/${intent.intentId}`;
    const internal = { 'x-internal-token': environment.env.INTERNAL_TOKEN! };
    const load = burst(ledger.url, CLIENTS, (client, n) =>
      (client + n) % 2 === 0 ? { path: '/healthz' } : { path: lookup, headers: internal },
    );
    await waitFor('the load to be under way', () => completed(load.outcomes, lookup) > CLIENTS, 30_000);

    // Hold the table the lookups read, so every client's lookup is waiting in PostgreSQL when SIGTERM comes.
    const blocker = new pg.Client({ connectionString: environment.databaseUrl });
    await blocker.connect();
    let exit;
    let signalAt: number;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE deposit_intents IN ACCESS EXCLUSIVE MODE');
      await sleep(400);
      signalAt = Date.now();
      const stop = ledger.terminate();
      await sleep(600);
      await blocker.query('COMMIT');
      exit = await stop;
    } finally {
      await blocker.end();
    }
    await load.done;

    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.afterMs).toBeLessThan(GRACE_MS + STOP_MARGIN_MS);
    const { stopping, stopped } = stopLines(ledger, 'ledger');
    expect(stopped).toMatchObject({ forced: false, exitCode: 0 });
    expectCleanDrain(load.outcomes, Date.parse(stopping.timestamp));
    // Sent well before the signal and unanswered at it: accepted, waiting on the lock. Each was answered,
    // after the drain began, and closed its connection.
    const held = load.outcomes.filter((o) => o.path === lookup && o.sentAt < signalAt - 200 && o.doneAt > signalAt);
    expect(held.length).toBeGreaterThanOrEqual(10);
    expect(held.filter((o) => o.kind !== 'complete' || o.status !== 200 || o.headers?.connection !== 'close')).toEqual([]);
    process.stderr.write(
      `ledger: started in ${Math.round(ledger.startupMs)} ms; SIGTERM to exit ${exit.afterMs} ms (600 ms of it in a table lock); ${held.length} held requests answered; ${JSON.stringify(tally(load.outcomes))}\n`,
    );
  }, 60_000);
});
