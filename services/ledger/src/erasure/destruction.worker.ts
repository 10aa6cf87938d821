import { repeatLimited, type Logger } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
import { runDestruction, type DestructionCounts } from './destruction.use-case.js';
import type { ErasureDeps } from './erase-records.use-case.js';

/**
 * The ledger's destruction job (docs/compliance.md, Retention and erasure): every DESTRUCTION_INTERVAL_MS (a day by
 * default, a week at most, so far more often than KVKK's six months) it anonymises what retention no longer keeps.
 * Every ledger runs one; the job's advisory lock lets one work at a time. Passes never overlap.
 */
export class DestructionWorker {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: ErasureDeps & { logger: Logger },
    intervalMs: number,
  ) {
    const failures = repeatLimited(deps.logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      intervalMs,
      (error) => failures('warn', 'destruction pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  async runOnce(): Promise<DestructionCounts> {
    const counts = await runDestruction(this.deps);
    if (counts.anonymised + counts.pruned > 0) this.deps.logger.info('destruction pass', { ...counts });
    return counts;
  }
}
