/** Starts one of the benchmark's servers in the current process (used by child.ts, and directly in in-process mode). */
import type { KasaConfig } from '../../packages/config/src/index.js';
import { startGateway } from '../../services/gateway/src/index.js';
import { startLedger } from '../../services/ledger/src/index.js';
import { startBaseline } from './baseline-app.js';
import { startRelay } from './relay-app.js';

/** `relay` passes every request on to `config.ledgerUrl` (the baseline's URL): the two-hop floor. */
export type Role = 'ledger' | 'gateway' | 'baseline' | 'relay';

export interface RunningServer {
  port: number;
  stop(): Promise<void>;
}

export async function startServer(role: Role, config: KasaConfig): Promise<RunningServer> {
  switch (role) {
    case 'ledger':
      return startLedger(config, 0);
    case 'gateway':
      return startGateway(config, 0);
    case 'baseline':
      return startBaseline(config.databaseUrl, 0);
    case 'relay':
      return startRelay(config.ledgerUrl, 0);
    default:
      throw new Error(`unknown role ${String(role)}`);
  }
}
