import { repeatLimited, type Logger } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
import { evaluateRiskPage, type EvaluateRiskDeps } from './evaluate-risk.use-case.js';

/**
 * The ledger's risk worker: every interval it evaluates the bank lines committed (or assigned) since its last pass
 * against the risk rules (evaluate-risk.use-case.ts), page after page until none is left. Every ledger runs one; the
 * pages' row locks let them share the work. Passes never overlap.
 */
export class RiskWorker {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: EvaluateRiskDeps & { logger: Logger },
    intervalMs: number,
  ) {
    const failures = repeatLimited(deps.logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      intervalMs,
      (error) => failures('warn', 'risk pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Evaluates every line waiting, a page per transaction; returns the totals. */
  async runOnce(): Promise<{ lines: number; flagged: number }> {
    const total = { lines: 0, flagged: 0 };
    for (;;) {
      const page = await evaluateRiskPage(this.deps);
      total.lines += page.lines;
      total.flagged += page.flagged;
      if (page.lines === 0) break;
    }
    if (total.flagged > 0) this.deps.logger.info('risk flags raised', total);
    return total;
  }
}
