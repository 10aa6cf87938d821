import type { Server } from 'node:http';
import type { KasaConfig } from '@kasa/config';
import { close, forceClose, listen, settleWithin, type HttpService } from '@kasa/http';
import { createApp } from './app.js';
import { createLedgerDeps, type LedgerDeps } from './ledger-deps.js';
import { startExpiryWorker } from './expiry/expiry.worker.js';
import { startAutoReplayWorker } from './events/auto-replay.worker.js';
import { FollowUpWorker } from './follow-ups/follow-up.worker.js';
import { HistoryWorker } from './history/history.worker.js';
import { RiskWorker } from './risk/risk.worker.js';
import { RescreenWorker } from './screening/rescreen.worker.js';
import { DestructionWorker } from './erasure/destruction.worker.js';

/** The longest one shutdown step may take before it is forced. */
const STEP_MS = 10_000;

export type LedgerService = HttpService<LedgerDeps>;

/** Starts the ledger on `port` (0 for any free port); `stop` drains HTTP, then closes PostgreSQL and Redis. */
export async function startLedger(
  config: KasaConfig,
  port = config.ledgerPort,
  overrides: Partial<LedgerDeps> = {},
): Promise<LedgerService> {
  const deps = createLedgerDeps(config, overrides);
  const app = createApp(deps);
  let server: Server;
  let bound: number;
  try {
    ({ server, port: bound } = await listen(app, port, config.bindAddress));
  } catch (error) {
    await deps.expiryQueue.close();
    await deps.webhookQueue.close();
    deps.queueConnection.disconnect();
    await deps.db.$disconnect();
    await deps.pool.end();
    await deps.readPool?.end();
    deps.redis.disconnect();
    throw error;
  }
  deps.outboxRelay.start();
  // Finishes what a commit promised and no request finished: a ledger stopped right after a commit (follow-ups/).
  const followUpWorker = new FollowUpWorker(deps, { intervalMs: config.followUpIntervalMs, graceMs: config.followUpGraceMs });
  followUpWorker.start();
  // Links committed audit and journal entries into their hash chains (docs/compliance.md, Tamper-evident history).
  // and seals each Istanbul day once it has ended, signed with HISTORY_SEAL_KEY.
  if (config.historySealKey.development) {
    deps.logger.warn('history seals are signed with the published development key (HISTORY_SEAL_KEY unset); set a key of your own', {
      keyId: deps.sealKeys.signing.keyId,
    });
  }
  const historyWorker = new HistoryWorker(deps, config.historyChainIntervalMs);
  historyWorker.start();
  // Screens open withdrawals again against a newly imported sanctions list (docs/compliance.md).
  const rescreenWorker = new RescreenWorker(deps, config.screeningRescreenIntervalMs);
  rescreenWorker.start();
  // Anonymises what retention no longer keeps (docs/compliance.md, Retention and erasure).
  const destructionWorker = new DestructionWorker(deps, config.destructionIntervalMs);
  destructionWorker.start();
  // Evaluates each bank line against the risk rules once committed (docs/compliance.md, Risk flags and reports).
  const riskWorker = new RiskWorker(deps, config.risk.intervalMs);
  riskWorker.start();
  const expiryWorker = startExpiryWorker(deps, deps.queueConnection);
  // Replays a recovered site's DEAD events when the webhook worker asks (docs/webhooks.md, Auto-replay).
  const autoReplayWorker = startAutoReplayWorker(deps, deps.queueConnection);
  // A Redis hiccup at start must not keep the ledger down: the scheduler retries until the sweep is installed.
  deps.expiryScheduler.keepSweeperInstalled(config.expirySweepIntervalMs);
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      deps.expiryScheduler.stop();
      // HTTP drains while the background work (outbox relay, expiry sweep) winds down; requests still in
      // flight may publish to the webhook queue, so it and the connections close after both.
      await Promise.all([
        close(server),
        (async () => {
          // Each Redis-side step is bounded: after an outage they can wait on a reconnect that never comes.
          await settleWithin(deps.outboxRelay.stop(), STEP_MS);
          await settleWithin(followUpWorker.stop(), STEP_MS);
          await settleWithin(historyWorker.stop(), STEP_MS);
          await settleWithin(rescreenWorker.stop(), STEP_MS);
          await settleWithin(destructionWorker.stop(), STEP_MS);
          await settleWithin(riskWorker.stop(), STEP_MS);
          if (!(await settleWithin(expiryWorker.close(), STEP_MS))) await settleWithin(expiryWorker.close(true), STEP_MS);
          if (!(await settleWithin(autoReplayWorker.close(), STEP_MS))) await settleWithin(autoReplayWorker.close(true), STEP_MS);
        })(),
      ]);
      await settleWithin(deps.expiryQueue.close(), STEP_MS);
      await settleWithin(deps.webhookQueue.close(), STEP_MS);
      if (!(await settleWithin(deps.queueConnection.quit(), STEP_MS))) deps.queueConnection.disconnect();
      await deps.db.$disconnect();
      await deps.pool.end();
      await deps.readPool?.end();
      deps.webhookSender.close();
      if (!(await settleWithin(deps.redis.quit(), STEP_MS))) deps.redis.disconnect();
    },
    forceStop() {
      forceClose(server);
      deps.queueConnection.disconnect();
      deps.redis.disconnect();
    },
  };
}
