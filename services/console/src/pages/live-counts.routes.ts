import express, { type Router } from 'express';
import type { OpsDashboard } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { operatorOf } from '../session/session.middleware.js';
import { formatTime } from '../views/format.js';

/** The dashboard's queues by key; each a count in the live answer. */
export type QueueKey = keyof Omit<OpsDashboard, 'generatedAt'>;

/** What the review queue holds: deposits in time and late, and withdrawals, all waiting for an operator's decision. */
export function reviewCount(dashboard: OpsDashboard): number {
  return dashboard.depositsToReview.count + dashboard.lateArrivals.count + dashboard.withdrawalsToReview.count;
}

/** The live counts: when the ledger counted, the review queue's total, and each dashboard queue's count. */
export interface LiveCounts {
  generatedAt: string;
  /** `generatedAt` as the dashboard's "As of" shows it (Türkiye time). */
  asOf: string;
  review: number;
  queues: Record<QueueKey, number>;
}

export function liveCounts(dashboard: OpsDashboard): LiveCounts {
  const { generatedAt, ...heads } = dashboard;
  const queues = Object.fromEntries(Object.entries(heads).map(([key, head]) => [key, head.count])) as Record<QueueKey, number>;
  return { generatedAt, asOf: formatTime(generatedAt), review: reviewCount(dashboard), queues };
}

/**
 * `GET /live/counts`: the dashboard's counts as JSON for the page script to poll (console.client.js), read from the
 * ledger as the logged-in operator on every call, so each operator sees what their own token may see and nothing is
 * shared between operators. Pages stay `no-store` (app.ts), this answer too.
 */
export function liveCountRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/live/counts', async (req, res) => {
    const operator = operatorOf(res);
    const dashboard = await deps.ledger.with({ token: operator.token, requestId: req.requestId }).call('opsDashboard');
    res.json(liveCounts(dashboard));
  });
  return router;
}
