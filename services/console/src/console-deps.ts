import type { KasaConfig } from '@kasa/config';
import { createLogger, type Logger } from '@kasa/logger';
import { OpsClient } from '@kasa/ops-client';
import { SessionSealer } from './session/session.js';

/** Everything the console needs, wired once by hand. It has no database and no Redis: only the ledger. */
export interface ConsoleDeps {
  config: KasaConfig;
  logger: Logger;
  /** The ops API over a keep-alive pool; pages scope it to the operator and request with `with()`. */
  ledger: OpsClient;
  sessions: SessionSealer;
  /** Decides session expiry; tests may pass their own. */
  clock: () => Date;
}

export function createConsoleDeps(config: KasaConfig, overrides: Partial<ConsoleDeps> = {}): ConsoleDeps {
  return {
    config,
    logger: overrides.logger ?? createLogger({ service: 'console', level: config.logLevel }),
    ledger: overrides.ledger ?? new OpsClient({ baseUrl: config.ledgerUrl, connections: 16, timeoutMs: 10_000 }),
    sessions: overrides.sessions ?? new SessionSealer(config.secretEncryptionKey),
    clock: overrides.clock ?? (() => new Date()),
    ...overrides,
  };
}
