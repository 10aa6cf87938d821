import { repeatLimited, type Logger } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
import { chainHistory, type ChainedCounts, type ChainHistoryDeps } from './chain-history.use-case.js';
import { markForSealing, sealHistory, type SealedDays, type SealHistoryDeps, type SealMark } from './seal-history.use-case.js';

/**
 * The ledger's history worker: every interval it links the audit and journal entries committed since its last pass into
 * their hash chains (chain-history.use-case.ts), then seals each Istanbul day that has ended and is not sealed yet, once
 * the chains hold all of it (seal-history.use-case.ts). Every ledger runs one; an advisory lock lets one pass run at a
 * time across them. Passes never overlap.
 */
export class HistoryWorker {
  private readonly loop: RepeatingPass;
  /**
   * The mark a day waits on, kept until the day is sealed: a new mark each pass could always find some transaction begun
   * just before it still running. Lost with the process, it is only taken again.
   */
  private mark: SealMark | null = null;

  constructor(
    private readonly deps: ChainHistoryDeps & SealHistoryDeps & { logger: Logger },
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

  /**
   * One pass: links what has committed since the last, then seals the days that have ended. The mark (the clock and the
   * transaction horizon) is taken before linking, so a day is sealed only when this pass's links hold everything begun
   * before it ended.
   */
  async runOnce(): Promise<ChainedCounts & { sealed: SealedDays }> {
    this.mark ??= await markForSealing(this.deps);
    const counts = await chainHistory(this.deps);
    const sealed = counts.ran && this.mark ? await sealHistory(this.deps, this.mark) : { days: [], waiting: false };
    if (!sealed.waiting && counts.ran) this.mark = null;
    if (sealed.days.length > 0) this.deps.logger.info('history sealed', { days: sealed.days, keyId: this.deps.sealKeys.signing.keyId });
    return { ...counts, sealed };
  }
}
