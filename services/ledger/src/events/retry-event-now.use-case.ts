import type { PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { deliveryJobId, type DeliverEventJob } from '@kasa/queue';
import type { Queue } from 'bullmq';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import type { RequestContext } from '../shared/request-context.js';
import type { EventRepository } from './event.repository.js';
import { deliveryScheduleOf, toEventView, type EventView } from './event-view.js';

/** The audit action of an operator bringing a PENDING event's next attempt forward. */
export const EVENT_RETRY_NOW = 'EVENT.RETRY_NOW';

export interface RetryNowDeps {
  db: PrismaClient;
  logger: Logger;
  clock: Clock;
  events: EventRepository;
  webhookQueue: Queue<DeliverEventJob>;
  outbox: OutboxPublisher;
  config: { webhookRetryDelayMs: number };
}

export interface RetryNowRequest extends RequestContext {
  eventId: string;
  actor: Actor;
}

/**
 * What happened to the event's delivery job: `promoted` out of its retry delay (or a deferral), `due` because it
 * was already waiting for a worker or running, `requeued` because Redis had lost it (the relay would have, later).
 */
export type RetryNowOutcome = 'promoted' | 'due' | 'requeued';

/**
 * Brings the next delivery attempt of a PENDING event forward to now. The event's current cycle has one BullMQ
 * job (its id derived from the event and the cycle); while it waits out the retry delay it sits in the delayed
 * set, and `Job.promote()` moves it to the waiting list. The job keeps its `attemptsMade`, so the attempt that
 * runs is the one that was scheduled, numbered as such: no attempt is added, and the cycle's last one (8) still
 * marks the event DEAD. A DELIVERED or DEAD event has no attempt left to bring forward: that is a replay.
 */
export async function retryEventNow(deps: RetryNowDeps, request: RetryNowRequest): Promise<EventView & { siteId: string }> {
  const { eventId } = request;
  const row = await deps.events.find(eventId);
  if (!row) throw new AppError('not_found', 'No event with this id.');
  if (row.status !== 'PENDING') {
    throw AppError.conflict(
      'invalid_transition',
      `The event is ${row.status}: it has no attempt left to bring forward. Replay it to start a new delivery cycle (POST /ops/v1/events/${eventId}/replay).`,
    );
  }
  const cycle = (await deps.events.cycles([eventId])).get(eventId) ?? 0;
  const outcome = await promoteJob(deps, eventId, cycle, request.requestId);
  await deps.db.$transaction((tx) =>
    writeAudit(tx, {
      actor: request.actor,
      action: EVENT_RETRY_NOW,
      entityType: 'outbox_event',
      entityId: eventId,
      siteId: row.siteId,
      metadata: { attemptCount: row.attemptCount, cycle, outcome },
    }),
  );
  deps.logger.info('event retry brought forward', { requestId: request.requestId, eventId, siteId: row.siteId, cycle, outcome });
  const view = toEventView(row, await deliveryScheduleOf(deps, [row]));
  return { ...view, nextAttemptAt: deps.clock.now().toISOString(), siteId: row.siteId };
}

/** Moves the cycle's job to the front; a job that left the delayed set meanwhile (a worker took it) is due already. */
async function promoteJob(deps: RetryNowDeps, eventId: string, cycle: number, requestId: string): Promise<RetryNowOutcome> {
  const job = await deps.webhookQueue.getJob(deliveryJobId(eventId, cycle));
  if (!job || (job.finishedOn !== undefined && (await job.isFailed()))) {
    // No live job (Redis lost it, or it failed without marking the event DEAD): queue the cycle afresh, as the relay does.
    if (job) await job.remove();
    await deps.outbox.enqueueNow([{ eventId, cycle, requestId }], 'publisher');
    return 'requeued';
  }
  if (!(await job.isDelayed())) return 'due';
  try {
    await job.promote();
    return 'promoted';
  } catch (error) {
    // BullMQ refuses to promote a job that is no longer delayed: a worker took it between the two calls.
    if (await job.isDelayed()) throw error;
    return 'due';
  }
}
