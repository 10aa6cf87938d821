import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { emitMany } from '../../ledger/test/emit-event.js';
import { configureWebhook, createDeposit, startStack, waitFor, type Stack } from './support/stack.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EVENTS = 500;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ WEBHOOK_RETRY_DELAY_MS: '500' }, { worker: false });
});
afterAll(async () => {
  await stack?.stop();
});

/** The worker as its own process, exactly as deployed: `node --import tsx src/main.ts` with env config. */
function spawnWorker(): ChildProcess {
  const { config } = stack.h.env;
  return spawn(process.execPath, ['--import', 'tsx', 'services/webhook-worker/src/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      WORKER_PORT: '0',
      LOG_LEVEL: 'error',
      WEBHOOK_CA_FILE: stack.tls.caFile,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
      WEBHOOK_CONCURRENCY: '10',
      WEBHOOK_RETRY_DELAY_MS: '500',
      WEBHOOK_LOCK_DURATION_MS: '2000',
      WEBHOOK_STALLED_INTERVAL_MS: '1000',
    },
  });
}

describe('a worker killed mid-batch', () => {
  it('loses nothing: after kill -9 another worker delivers every event at least once, duplicates with the same eventId', async () => {
    const site = await stack.h.createSite();
    await configureWebhook(stack.h, site, stack.receiver.url);
    stack.receiver.respond = async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return 200;
    };
    const intentId = await createDeposit(stack.h, site);
    const payloads = await emitMany(stack.h.ledger, { siteId: site.siteId, type: 'intent.approved', entityId: intentId }, EVENTS);
    const emitted = new Set(payloads.map((p) => p.eventId));

    const first = spawnWorker();
    const exited = once(first, 'exit');
    await waitFor('the first worker to deliver 100 events', () => stack.receiver.deliveries.length >= 100, 30_000);
    first.kill('SIGKILL');
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    const deliveredBeforeKill = stack.receiver.deliveries.length;
    expect(deliveredBeforeKill).toBeLessThan(EVENTS);

    const second = spawnWorker();
    try {
      const db = stack.h.ledger.deps.db;
      await waitFor(
        `all ${EVENTS} events DELIVERED`,
        async () => (await db.outboxEvent.count({ where: { siteId: site.siteId, status: 'DELIVERED' } })) === EVENTS,
        60_000,
        200,
      );
    } finally {
      second.kill('SIGTERM');
      const [code] = await once(second, 'exit');
      // SIGTERM is a clean stop: in-flight jobs finish or go back, and the process exits 0.
      expect(code).toBe(0);
    }

    const received = stack.receiver.deliveries;
    for (const delivery of received) {
      expect(JSON.parse(delivery.rawBody.toString('utf8')).eventId).toBe(delivery.eventId);
    }
    expect(new Set(received.map((d) => d.eventId))).toEqual(emitted);
    // Duplicates (a job whose worker died after the POST) are allowed, and carry the same eventId.
    expect(received.length).toBeGreaterThanOrEqual(EVENTS);
  }, 120_000);
});
