// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { startLedger } from './ledger.js';

const config = loadConfig();
const ledger = await startLedger(config);
ledger.deps.logger.info('ledger listening', { port: ledger.port });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    ledger.deps.logger.info('ledger stopping', { signal });
    ledger.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
