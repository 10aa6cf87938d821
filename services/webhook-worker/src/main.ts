// Process entry: parse config, start, and on SIGTERM/SIGINT finish in-flight deliveries and stop within SHUTDOWN_GRACE_MS.
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startWorker } from './worker.js';

await runProcess('webhook-worker', async () => {
  const config = loadConfig();
  const service = await startWorker(config);
  service.deps.logger.info('webhook worker running', { port: service.port, concurrency: config.webhookConcurrency });
  return { stop: () => service.stop(), forceStop: () => service.forceStop(), graceMs: config.shutdownGraceMs, logger: service.deps.logger };
});
