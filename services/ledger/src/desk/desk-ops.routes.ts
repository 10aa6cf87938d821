import express, { type Router } from 'express';
import { parseRequest, type OpsRecordDeskQueue, type ResponseOf } from '@kasa/contracts';
import {
  DeskRepository,
  liveRecordsWhere,
  type DeliveryHealthRow,
  type DeskDb,
  type LiveRecords,
  type QueueHead,
} from './desk.repository.js';
import { healthView, queueView } from './desk.views.js';
import { opsOperation } from '../shared/ops-route.js';
import { readWithTimeout } from '../shared/read-timeout.repository.js';
import { reconcileAll, type AccountReconciliation } from '../reconciliation/reconcile-account.use-case.js';
import { principalOf } from '../shared/operator-principal.js';
import { scopeOf } from '../shared/site-scope.js';
import { AUTO_REPLAY_RULE } from '../events/auto-replay.use-case.js';
import type { Clock } from '../shared/clock.js';
import type { KasaConfig } from '@kasa/config';
import type { PrismaClient } from '@kasa/db';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type DeskOpsRoutesDeps = Parameters<typeof reconcileAll>[0] & {
  clock: Clock;
  config: KasaConfig;
  db: PrismaClient;
};

/**
 * A queue a record kind declares on the desk (its contract module's `desk` part), by the dashboard's name for it, with
 * its kind's count of `live` records (the desk's rule, {@link liveRecordsWhere}) read on the dashboard's `db`.
 */
export interface DeclaredQueue {
  readonly queue: string;
  readonly head: (live: LiveRecords, db: DeskDb) => Promise<QueueHead>;
}

/** The declared queues' part of the dashboard's answer. */
type DeclaredQueues = Pick<ResponseOf<'OpsDashboard'>, OpsRecordDeskQueue['queue']>;

const HOUR_MS = 3_600_000;
const DEFAULT_WINDOW_HOURS = 24;
const DASHBOARD_TOO_SLOW = 'The dashboard took too long to read; try again in a moment.';
const HEALTH_TOO_SLOW = 'Delivery health took too long to read; narrow it to a site or fewer hours.';

/** Accounts whose statement and bookings disagree; the one reconciled longest ago (the earliest asOf) first. */
function differencesOf(accounts: AccountReconciliation[]): QueueHead {
  const differing = accounts
    .filter((account) => account.status === 'difference')
    .sort((a, b) => (a.asOf ?? '').localeCompare(b.asOf ?? ''));
  const first = differing[0];
  return { count: differing.length, oldestAt: first?.asOf ? new Date(first.asOf) : null, oldestId: first?.accountId ?? null };
}

/** A site is failing while its latest delivery attempt failed, or while it has DEAD events. */
const isFailing = (row: DeliveryHealthRow) => row.failingSince !== null || row.dead > 0;

/**
 * The operators' desk: `GET /dashboard` (what needs an operator: counts and the item that has waited
 * longest) and `GET /delivery-health` (each partner's webhook deliveries). Any operator may read them.
 * `declaredQueues`: every queue the record kinds declare, each with its kind's count (record-kinds.ts, `deskQueuesOf`),
 * put in the answer after the queues written here.
 */
export function deskOpsRoutes(deps: DeskOpsRoutesDeps, declaredQueues: readonly DeclaredQueue[]): Router {
  const router = express.Router();
  const desk = new DeskRepository(deps.db);

  opsOperation(
    router,
    'opsDashboard',
  )(async (_input, _req, res) => {
    const now = deps.clock.now();
    const scope = scopeOf(principalOf(res.locals));
    const since = new Date(now.getTime() - DEFAULT_WINDOW_HOURS * HOUR_MS);
    const [[{ heads: queues, kinds }, health, autoReplayed], accounts] = await Promise.all([
      // The counts on one connection, one statement after another, each bounded by OPS_READ_TIMEOUT_MS like the lists'.
      readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, DASHBOARD_TOO_SLOW, async (tx) => {
        const heads = await desk.queueHeads(scope, tx);
        const declared: Array<[string, ResponseOf<'QueueHead'>]> = [];
        for (const { queue, head } of declaredQueues) declared.push([queue, queueView(await head(liveRecordsWhere(scope), tx))]);
        const rows = await desk.deliveryHealth(since, scope, undefined, tx);
        // One cast: record-kinds.ts' deskQueuesOf gives a count for every declared queue, each once, and DeclaredQueues is
        // read off the same declarations.
        const kinds = Object.fromEntries(declared) as DeclaredQueues;
        return [{ heads, kinds }, rows, await desk.autoReplayed(since, AUTO_REPLAY_RULE, scope, tx)] as const;
      }),
      // Reconciliation is house-wide (the receiving accounts): a scoped operator has no differences to see.
      scope === null ? reconcileAll(deps) : Promise.resolve([]),
    ]);
    const failing = health.filter(isFailing);
    const longest = failing
      .map((row) => ({ id: row.siteId, at: row.failingSince ?? row.lastFailureAt }))
      .sort((a, b) => (a.at?.getTime() ?? Infinity) - (b.at?.getTime() ?? Infinity))[0];
    return {
      generatedAt: now.toISOString(),
      depositsToReview: queueView(queues.depositsToReview),
      lateArrivals: queueView(queues.lateArrivals),
      waitingForRest: queueView(queues.waitingForRest),
      unmatchedTransfers: queueView(queues.unmatchedTransfers),
      bankLineDifferences: queueView(queues.bankLineDifferences),
      withdrawalsToReview: queueView(queues.withdrawalsToReview),
      withdrawalsToSend: queueView(queues.withdrawalsToSend),
      deadEvents: queueView(queues.deadEvents),
      returnsToReview: queueView(queues.returnsToReview),
      returnsToSend: queueView(queues.returnsToSend),
      // The queues the kinds declare, after the hand-written ones.
      ...kinds,
      failingPartners: queueView({ count: failing.length, oldestAt: longest?.at ?? null, oldestId: longest?.id ?? null }),
      reconciliationDifferences: queueView(differencesOf(accounts)),
      autoReplayed: queueView(autoReplayed),
    };
  });

  opsOperation(
    router,
    'deliveryHealth',
  )(async (_input, req, res) => {
    const query = parseRequest('deliveryHealth', req.query, 'The filters are not valid.');
    const hours = query.hours ? Number(query.hours) : DEFAULT_WINDOW_HOURS;
    const now = deps.clock.now();
    const since = new Date(now.getTime() - hours * HOUR_MS);
    const scope = scopeOf(principalOf(res.locals));
    const rows = await readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, HEALTH_TOO_SLOW, (tx) =>
      desk.deliveryHealth(since, scope, query.siteId, tx),
    );
    return { generatedAt: now.toISOString(), windowHours: hours, data: rows.map(healthView) };
  });

  return router;
}
