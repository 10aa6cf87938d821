import type { Prisma, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import { msFromNow, type Clock } from '../shared/clock.js';
import type { IdempotencyRecordRepository } from '../shared/idempotency-record.repository.js';
import type { RequestContext } from '../shared/request-context.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import { EVENT_REPLAYED, type EventRepository } from './event.repository.js';
import { toEventView, type EventView } from './event-view.js';

export interface ReplayDeps {
  db: PrismaClient;
  logger: Logger;
  clock: Clock;
  events: EventRepository;
  idempotencyRecords: IdempotencyRecordRepository;
  outbox: OutboxPublisher;
  config: { webhookRetryDelayMs: number };
}

/** A partner's Idempotency-Key for the replay, kept durably with the replay itself. */
export interface ReplayIdempotency {
  key: string;
  fingerprint: string;
}

export interface ReplayRequest extends RequestContext {
  eventId: string;
  actor: Actor;
  /** The partner's site; absent for an operator, who may replay any site's event. */
  siteId?: string;
  idempotency?: ReplayIdempotency;
}

export interface ReplayResult {
  replayed: boolean;
  body: EventView;
}

const ROUTE = 'events.replay';
const KEEP_MS = 48 * 3600 * 1000;

/**
 * Starts a new delivery cycle of a DELIVERED or DEAD event: status back to PENDING, an audit entry, and a
 * fresh queue job under the next cycle's job id, with the same eventId for the receiver to deduplicate on.
 * An event still being delivered is a conflict. With an idempotency key, the answer is stored in the same
 * transaction, so a retry gets it back even after a crash or a Redis loss.
 */
export async function replayEvent(deps: ReplayDeps, request: ReplayRequest): Promise<ReplayResult> {
  const { eventId, siteId, idempotency } = request;
  try {
    const outcome = await deps.db.$transaction(async (tx) => {
      if (idempotency && siteId) {
        const stored = await storedAnswer(deps, siteId, idempotency, tx);
        if (stored) return { replayed: true, body: stored, cycle: null, previousStatus: null, siteId: null };
      }
      const row = await deps.events.find(eventId, siteId, tx);
      if (!row) throw new AppError('not_found', 'No event with this id.');
      if (!(await deps.events.reopen(tx, eventId))) {
        throw AppError.conflict('event_in_delivery', 'The event is still being delivered; replay it once it is DELIVERED or DEAD.');
      }
      await writeAudit(tx, {
        actor: request.actor,
        action: EVENT_REPLAYED,
        entityType: 'outbox_event',
        entityId: eventId,
        siteId: row.siteId,
        metadata: { previousStatus: row.status },
      });
      const cycle = (await deps.events.cycles([eventId], tx)).get(eventId) ?? 1;
      const reopened = { ...row, status: 'PENDING' as const, deadAt: null };
      // The audit entry just written starts the new cycle, so the answer's nextAttemptAt is the replay itself.
      const body = toEventView(reopened, {
        retryDelayMs: deps.config.webhookRetryDelayMs,
        replayedAt: await deps.events.replayTimes([reopened], tx),
      });
      if (idempotency && siteId) {
        await deps.idempotencyRecords.store(
          tx,
          { siteId, route: ROUTE, key: idempotency.key },
          {
            fingerprint: idempotency.fingerprint,
            statusCode: 202,
            responseBody: body as unknown as Prisma.InputJsonValue,
            expiresAt: msFromNow(deps.clock, KEEP_MS),
          },
        );
      }
      return { replayed: false, body, cycle, previousStatus: row.status, siteId: row.siteId };
    });
    if (outcome.cycle !== null) {
      // The event keeps the request id that wrote it; this cycle's lines carry the replaying request's.
      deps.logger.info('event replayed', {
        requestId: request.requestId,
        eventId,
        siteId: outcome.siteId,
        cycle: outcome.cycle,
        previousStatus: outcome.previousStatus,
        actorType: request.actor.type,
      });
      await deps.outbox.enqueue([{ eventId, cycle: outcome.cycle, requestId: request.requestId }]);
    }
    return { replayed: outcome.replayed, body: outcome.body };
  } catch (error) {
    // Two requests with one key raced past the lookup: the loser answers from the winner's record.
    if (idempotency && siteId && isUniqueViolation(error)) {
      const stored = await storedAnswer(deps, siteId, idempotency);
      if (stored) return { replayed: true, body: stored };
    }
    throw error;
  }
}

async function storedAnswer(
  deps: Pick<ReplayDeps, 'idempotencyRecords' | 'clock'>,
  siteId: string,
  idempotency: ReplayIdempotency,
  tx?: Prisma.TransactionClient,
): Promise<EventView | null> {
  const record = await deps.idempotencyRecords.find({ siteId, route: ROUTE, key: idempotency.key }, deps.clock.now(), tx);
  if (!record) return null;
  if (record.fingerprint !== idempotency.fingerprint) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  return record.responseBody as unknown as EventView;
}
