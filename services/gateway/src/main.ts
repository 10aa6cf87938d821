// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { startGateway } from './gateway.js';

const config = loadConfig();
const gateway = await startGateway(config);
gateway.deps.logger.info('gateway listening', { port: gateway.port });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    gateway.deps.logger.info('gateway stopping', { signal });
    gateway.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
