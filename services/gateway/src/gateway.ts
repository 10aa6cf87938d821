import type { KasaConfig } from '@kasa/config';
import { serveHttp, settleWithin, type HttpService } from '@kasa/http';
import { createApp } from './app.js';
import { createGatewayDeps, type GatewayDeps } from './gateway-deps.js';

export type GatewayService = HttpService<GatewayDeps>;

/** Starts the gateway on `port` (0 for any free port). */
export async function startGateway(
  config: KasaConfig,
  port = config.gatewayPort,
  overrides: Partial<GatewayDeps> = {},
): Promise<GatewayService> {
  const deps = createGatewayDeps(config, overrides);
  return serveHttp(
    deps,
    createApp(deps),
    { port, host: config.bindAddress },
    async () => {
      await deps.ledger.close();
      await settleWithin(deps.authChanges.close(), 10_000);
      if (!(await settleWithin(deps.redis.quit(), 10_000))) deps.redis.disconnect();
    },
    () => {
      void deps.authChanges.close();
      deps.redis.disconnect();
    },
  );
}
