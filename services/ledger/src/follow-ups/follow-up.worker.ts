import { repeatLimited, type RepeatLimitedLog } from '@kasa/logger';
import { runFollowUps, type FollowUpCounts, type FollowUpDeps } from './run-follow-ups.use-case.js';

export interface FollowUpWorkerOptions {
  intervalMs: number;
  /** Follow-ups younger than this are left to the request that wrote them. */
  graceMs: number;
  /** Pages (of 500) one pass takes at most, so a long backlog is worked through in bounded passes. */
  pagesPerPass?: number;
}

/**
 * The ledger's follow-up worker: every interval it carries out the follow-ups that are due and that no request
 * finished (the ledger stopped between a commit and its follow-up work, a try failed and waits for its next): straight-
 * through approvals, payouts sent and returned (run-follow-ups.use-case.ts). Every ledger runs one; the claim's `SKIP
 * LOCKED` shares the work between them, and a follow-up is marked done in the transaction that does it, so a ledger
 * killed at any point leaves it to the next pass, here or on another ledger. Passes never overlap.
 */
export class FollowUpWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private readonly failures: RepeatLimitedLog;

  constructor(
    private readonly deps: FollowUpDeps,
    private readonly options: FollowUpWorkerOptions,
  ) {
    this.failures = repeatLimited(deps.logger);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** Stops the loop and waits (bounded) for a pass in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.running) await Promise.race([this.running, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }

  /** One pass over the due follow-ups. */
  async runOnce(): Promise<FollowUpCounts> {
    const counts = await runFollowUps(
      this.deps,
      null,
      { dueBefore: new Date(Date.now() - this.options.graceMs) },
      this.options.pagesPerPass ?? 20,
    );
    if (counts.autoApproved + counts.payoutsSent + counts.payoutsReturned + counts.skipped + counts.deferred > 0) {
      this.deps.logger.info('follow-up worker finished promised work', { ...counts });
    }
    return counts;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.failures('warn', 'follow-up pass failed; retrying next pass', { error }))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.options.intervalMs);
    this.timer.unref();
  }
}
