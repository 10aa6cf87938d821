import { repeatLimited, type Logger } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
import { chainHistory, type ChainedCounts, type ChainHistoryDeps } from './chain-history.use-case.js';

/**
 * The ledger's history worker: every interval it links the audit and journal entries committed since its last pass into
 * their hash chains (chain-history.use-case.ts). Every ledger runs one; an advisory lock lets one pass run at a time
 * across them. Passes never overlap.
 */
export class HistoryWorker {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: ChainHistoryDeps & { logger: Logger },
    intervalMs: number,
  ) {
    // A pass that fails the same way every interval (PostgreSQL away) is logged at most once per 5 s.
    const failures = repeatLimited(deps.logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      intervalMs,
      (error) => failures('warn', 'history chain pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits (bounded) for a pass in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: links what has committed since the last. */
  runOnce(): Promise<ChainedCounts> {
    return chainHistory(this.deps);
  }
}
