import { afterAll, beforeAll } from '@jest/globals';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, Scenario, type TestEnvironment } from '@kasa/testkit';

/** A real ledger (its own PostgreSQL database and Redis prefix) that a CLI test file runs `kasa` against. */
export interface RealLedger {
  readonly env: TestEnvironment;
  readonly ledger: LedgerService;
  /** Sets up sites, deposits and operators through the ledger's own APIs, as the bootstrap admin. */
  readonly scenario: Scenario;
}

/**
 * Starts a ledger before the file's tests (with `settings` over the test environment's) and stops it and drops
 * its database after them. Its parts are read once the tests run: `real.ledger.url`, never at the top of a file.
 */
export function useRealLedger(settings: Record<string, string> = {}): RealLedger {
  let env: TestEnvironment | undefined;
  let ledger: LedgerService | undefined;
  let scenario: Scenario | undefined;
  beforeAll(async () => {
    env = await createTestEnvironment(settings);
    ledger = await startLedger(env.config, 0);
    const started = ledger;
    scenario = new Scenario({
      ledgerUrl: () => started.url,
      opsToken: env.config.opsBootstrapToken,
      internalToken: env.config.internalToken,
    });
  });
  afterAll(async () => {
    await ledger?.stop();
    await env?.cleanup();
  });
  const started = <T>(part: T | undefined): T => {
    if (part === undefined) throw new Error('the ledger is started in beforeAll: read it inside a test');
    return part;
  };
  return {
    get env() {
      return started(env);
    },
    get ledger() {
      return started(ledger);
    },
    get scenario() {
      return started(scenario);
    },
  };
}
