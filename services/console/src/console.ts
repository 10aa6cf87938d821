import type { KasaConfig } from '@kasa/config';
import { serveHttp, type HttpService } from '@kasa/http';
import { createApp } from './app.js';
import { createConsoleDeps, type ConsoleDeps } from './console-deps.js';

export type ConsoleService = HttpService<ConsoleDeps>;

/** Starts the console on `port` (0 for any free port); `stop` drains HTTP, then closes the ledger pool. */
export async function startConsole(
  config: KasaConfig,
  port = config.consolePort,
  overrides: Partial<ConsoleDeps> = {},
): Promise<ConsoleService> {
  const deps = createConsoleDeps(config, overrides);
  return serveHttp(deps, createApp(deps), { port, host: config.bindAddress }, async () => {
    await deps.ledger.close();
  });
}
