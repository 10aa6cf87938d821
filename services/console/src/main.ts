// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { startConsole } from './console.js';

const config = loadConfig();
const consoleService = await startConsole(config);
consoleService.deps.logger.info('console listening', { port: consoleService.port, ledgerUrl: config.ledgerUrl });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    consoleService.deps.logger.info('console stopping', { signal });
    consoleService.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
