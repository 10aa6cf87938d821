import { repeatLimited } from '@kasa/logger';
import { RepeatingPass } from '../shared/repeating-pass.js';
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
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: FollowUpDeps,
    private readonly options: FollowUpWorkerOptions,
  ) {
    // A pass that fails the same way every interval (PostgreSQL away) is logged at most once per 5 s.
    const failures = repeatLimited(deps.logger);
    this.loop = new RepeatingPass(
      () => this.runOnce(),
      options.intervalMs,
      (error) => failures('warn', 'follow-up pass failed; retrying next pass', { error }),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop and waits (bounded) for a pass in progress. */
  stop(): Promise<void> {
    return this.loop.stop();
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
}
