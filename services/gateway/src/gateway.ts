import type { KasaConfig } from '@kasa/config';
import { close, listen, settleWithin } from '@kasa/http';
import { createApp } from './app.js';
import { createGatewayDeps, type GatewayDeps } from './gateway-deps.js';

export interface GatewayService {
  deps: GatewayDeps;
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Starts the gateway on `port` (0 for any free port). */
export async function startGateway(
  config: KasaConfig,
  port = config.gatewayPort,
  overrides: Partial<GatewayDeps> = {},
): Promise<GatewayService> {
  const deps = createGatewayDeps(config, overrides);
  const { server, port: bound } = await listen(createApp(deps), port);
  return {
    deps,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    async stop() {
      await close(server);
      await deps.ledger.close();
      if (!(await settleWithin(deps.redis.quit(), 10_000))) deps.redis.disconnect();
    },
  };
}
