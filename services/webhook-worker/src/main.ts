// Process entry: parse config, start, and on SIGTERM/SIGINT finish in-flight deliveries before exiting.
import { loadConfig } from '@kasa/config';
import { startWorker } from './worker.js';

const config = loadConfig();
const service = await startWorker(config);
service.deps.logger.info('webhook worker running', { port: service.port, concurrency: config.webhookConcurrency });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    service.deps.logger.info('webhook worker stopping', { signal });
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
