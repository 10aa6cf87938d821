/** Starts one of the benchmark's servers in the current process (used by child.ts, and directly in in-process mode). */
import type { KasaConfig } from '../../packages/config/src/index.js';
import { startGateway } from '../../services/gateway/src/index.js';
import { startLedger } from '../../services/ledger/src/index.js';
import { startBaseline } from './baseline-app.js';

export type Role = 'ledger' | 'gateway' | 'baseline';

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
    default:
      throw new Error(`unknown role ${String(role)}`);
  }
}
