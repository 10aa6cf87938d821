import { repeatLimited } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
import { rescreenOpenRecords, type RescreenCounts, type RescreenDeps } from './rescreen.use-case.js';

/**
 * The ledger's re-screening worker: every interval it screens again the open records whose newest screening predates
 * the lists' current versions (rescreen.use-case.ts). Every ledger runs one; records are locked one by one, so two
 * ledgers share the work and never screen a record twice against the same versions. Passes never overlap.
 */
export class RescreenWorker {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: RescreenDeps,
    intervalMs: number,
  ) {
    const failures = repeatLimited(deps.logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      intervalMs,
      (error) => failures('warn', 're-screening pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; a full pass is followed at once by the next (a list import re-screens thousands of records). */
  async runOnce(): Promise<RescreenCounts> {
    const total: RescreenCounts = { screened: 0, held: 0 };
    for (;;) {
      const counts = await rescreenOpenRecords(this.deps);
      total.screened += counts.screened;
      total.held += counts.held;
      if (counts.screened === 0) return total;
    }
  }
}
