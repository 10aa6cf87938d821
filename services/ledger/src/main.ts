// Process entry: parse config, start, stop cleanly on SIGTERM/SIGINT.
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startLedger } from './ledger.js';

await runProcess('ledger', async () => {
  const ledger = await startLedger(loadConfig());
  ledger.deps.logger.info('ledger listening', { port: ledger.port });
  return { stop: () => ledger.stop(), logger: ledger.deps.logger };
});
