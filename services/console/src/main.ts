// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startConsole } from './console.js';

await runProcess('console', async () => {
  const config = loadConfig();
  const service = await startConsole(config);
  service.deps.logger.info('console listening', { port: service.port, ledgerUrl: config.ledgerUrl });
  return { stop: () => service.stop(), logger: service.deps.logger };
});
