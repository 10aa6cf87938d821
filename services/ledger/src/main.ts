// Process entry: parse config, start, and on SIGTERM/SIGINT drain and stop within SHUTDOWN_GRACE_MS (@kasa/http runProcess).
import { loadConfig } from '@kasa/config';
import { runProcess } from '@kasa/http';
import { startLedger } from './ledger.js';

await runProcess('ledger', async () => {
  const config = loadConfig();
  const ledger = await startLedger(config);
  ledger.deps.logger.info('ledger listening', { port: ledger.port });
  return { stop: () => ledger.stop(), forceStop: () => ledger.forceStop(), graceMs: config.shutdownGraceMs, logger: ledger.deps.logger };
});
