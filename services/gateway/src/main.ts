// Process entry: parse config, start, and on SIGTERM/SIGINT drain and stop within SHUTDOWN_GRACE_MS (@kasa/http runProcess).
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startGateway } from './gateway.js';

await runProcess('gateway', async () => {
  const config = loadConfig();
  const gateway = await startGateway(config);
  gateway.deps.logger.info('gateway listening', { port: gateway.port });
  return { stop: () => gateway.stop(), forceStop: () => gateway.forceStop(), graceMs: config.shutdownGraceMs, logger: gateway.deps.logger };
});
