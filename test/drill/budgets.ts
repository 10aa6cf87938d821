/** The drill's two budgets: the full one of `npm run drill` and the short one the test suite runs. */
import type { DrillOptions } from './run-drill.js';

type Budget = Omit<DrillOptions, 'log'>;

/** `npm run drill`: a minute of traffic after each fault, so slow recoveries show. */
export const FULL_BUDGET: Budget = {
  rps: 100,
  baselineMs: 20_000,
  settleMs: { gateway: 60_000, ledger: 60_000, 'webhook-worker': 60_000, postgres: 60_000, redis: 60_000 },
  eventsDeadlineMs: 120_000,
  redisNodeTimeoutMs: 3_000,
  promoteAfterMs: 2_000,
};

/** test/drill/drill.test.ts: about 90 s of traffic on a two-core machine running other tests. */
export const SHORT_BUDGET: Budget = {
  rps: 100,
  baselineMs: 5_000,
  settleMs: { gateway: 12_000, ledger: 12_000, 'webhook-worker': 12_000, postgres: 20_000, redis: 18_000 },
  eventsDeadlineMs: 45_000,
  redisNodeTimeoutMs: 3_000,
  promoteAfterMs: 2_000,
};
