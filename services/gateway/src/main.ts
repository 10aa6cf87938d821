// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startGateway } from './gateway.js';

await runProcess('gateway', async () => {
  const gateway = await startGateway(loadConfig());
  gateway.deps.logger.info('gateway listening', { port: gateway.port });
  return { stop: () => gateway.stop(), logger: gateway.deps.logger };
});
