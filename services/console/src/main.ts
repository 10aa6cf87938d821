// Process entry: parse config, start, and on SIGTERM/SIGINT drain and stop within SHUTDOWN_GRACE_MS (@kasa/http runProcess).
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startConsole } from './console.js';

await runProcess('console', async () => {
  const config = loadConfig();
  const service = await startConsole(config);
  service.deps.logger.info('console listening', { port: service.port, ledgerUrl: config.ledgerUrl });
  return { stop: () => service.stop(), forceStop: () => service.forceStop(), graceMs: config.shutdownGraceMs, logger: service.deps.logger };
});
