import type { KasaConfig } from '@kasa/config';
import { createLogger, type Logger } from '@kasa/logger';
import { LedgerOpsClient } from './ledger/ledger-ops.client.js';
import { SessionSealer } from './session/session.js';

/** Everything the console needs, wired once by hand. It has no database and no Redis: only the ledger. */
export interface ConsoleDeps {
  config: KasaConfig;
  logger: Logger;
  ledger: LedgerOpsClient;
  sessions: SessionSealer;
  /** Decides session expiry; tests may pass their own. */
  clock: () => Date;
}

export function createConsoleDeps(config: KasaConfig, overrides: Partial<ConsoleDeps> = {}): ConsoleDeps {
  return {
    config,
    logger: overrides.logger ?? createLogger({ service: 'console', level: config.logLevel }),
    ledger: overrides.ledger ?? new LedgerOpsClient(config.ledgerUrl),
    sessions: overrides.sessions ?? new SessionSealer(config.secretEncryptionKey),
    clock: overrides.clock ?? (() => new Date()),
    ...overrides,
  };
}
