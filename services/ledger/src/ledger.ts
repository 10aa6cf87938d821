import type { Server } from 'node:http';
import type { KasaConfig } from '@kasa/config';
import { close, listen } from '@kasa/http';
import { createApp } from './app.js';
import { createLedgerDeps, type LedgerDeps } from './ledger-deps.js';

export interface LedgerService {
  deps: LedgerDeps;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts the ledger on `port` (0 for any free port); `stop` drains HTTP, then closes PostgreSQL and Redis. */
export async function startLedger(config: KasaConfig, port = config.ledgerPort, overrides: Partial<LedgerDeps> = {}): Promise<LedgerService> {
  const deps = createLedgerDeps(config, overrides);
  const app = createApp(deps);
  let server: Server;
  let bound: number;
  try {
    ({ server, port: bound } = await listen(app, port));
  } catch (error) {
    await deps.webhookQueue.close();
    deps.queueConnection.disconnect();
    await deps.db.$disconnect();
    deps.redis.disconnect();
    throw error;
  }
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      await close(server);
      await deps.webhookQueue.close();
      await deps.queueConnection.quit().catch(() => deps.queueConnection.disconnect());
      await deps.db.$disconnect();
      await deps.redis.quit().catch(() => deps.redis.disconnect());
    },
  };
}
