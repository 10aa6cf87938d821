import type { KasaConfig } from '@kasa/config';
import { close, listen } from '@kasa/http';
import { createApp } from './app.js';
import { createConsoleDeps, type ConsoleDeps } from './console-deps.js';

export interface ConsoleService {
  deps: ConsoleDeps;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts the console on `port` (0 for any free port); `stop` drains HTTP, then closes the ledger pool. */
export async function startConsole(
  config: KasaConfig,
  port = config.consolePort,
  overrides: Partial<ConsoleDeps> = {},
): Promise<ConsoleService> {
  const deps = createConsoleDeps(config, overrides);
  const { server, port: bound } = await listen(createApp(deps), port);
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      await close(server);
      await deps.ledger.close();
    },
  };
}
