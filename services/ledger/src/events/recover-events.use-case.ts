import { RECOVER_WINDOW_MAX_DAYS, type ResponseOf } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { writeAudits, type Actor } from '../shared/audit.repository.js';
import { msFromNow } from '../shared/clock.js';
import type { CursorPosition } from '../shared/cursor.js';
import type { RequestContext } from '../shared/request-context.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import { EVENT_REPLAYED } from './event.repository.js';
import type { ReplayDeps, ReplayIdempotency } from './replay-event.use-case.js';

export type RecoverEventsResult = ResponseOf<'RecoverEventsResponse'>;

export interface RecoverEventsRequest extends RequestContext {
  siteId: string;
  since: Date;
  /** Defaults to the ledger's now. */
  until?: Date;
  actor: Actor;
  idempotency: ReplayIdempotency;
}

/** Events replayed per transaction (one UPDATE, one audit INSERT, one enqueue of their jobs). */
const BATCH = 100;
/** The answer names at most this many events; `replayed` counts all of them. */
export const RECOVERED_IDS_LISTED = 1000;
const ROUTE = 'events.recover';
const KEEP_MS = 48 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
/** The problem detail of a recovery request that is not valid (the gateway checks the body's shape with it too). */
export const RECOVER_INVALID = 'The recovery window is not valid; nothing was replayed.';

/**
 * A partner's recovery: {@link replayDeadEvents} over `[since, until)`, with the same reopening, audit entry
 * (naming the API key) and fresh job as a single replay. The answer is
 * kept under the Idempotency-Key like a single replay's, so a retry gets it back; a recovery cut short (a crash)
 * and retried replays only what is still DEAD.
 */
export async function recoverEvents(
  deps: ReplayDeps,
  request: RecoverEventsRequest,
): Promise<{ replayed: boolean; body: RecoverEventsResult }> {
  const { siteId, since, idempotency } = request;
  const until = request.until ?? deps.clock.now();
  const problems = [];
  if (since >= until) problems.push({ field: 'since', message: 'must be before until' });
  else if (until.getTime() - since.getTime() > RECOVER_WINDOW_MAX_DAYS * DAY_MS) {
    problems.push({ field: 'until', message: `must be at most ${RECOVER_WINDOW_MAX_DAYS} days after since` });
  }
  if (problems.length > 0) throw AppError.validation(problems, RECOVER_INVALID);

  const stored = await storedAnswer(deps, siteId, idempotency);
  if (stored) return { replayed: true, body: stored };

  const body = await replayDeadEvents(deps, { siteId, since, until, actor: request.actor, requestId: request.requestId });
  try {
    await deps.db.$transaction((tx) =>
      deps.idempotencyRecords.store(
        tx,
        { siteId, route: ROUTE, key: idempotency.key },
        {
          fingerprint: idempotency.fingerprint,
          statusCode: 200,
          responseBody: body,
          expiresAt: msFromNow(deps.clock, KEEP_MS),
        },
      ),
    );
  } catch (error) {
    // A concurrent recovery with the same key finished first: answer as it did.
    if (!isUniqueViolation(error)) throw error;
    const winner = await storedAnswer(deps, siteId, idempotency);
    if (winner) return { replayed: true, body: winner };
    throw error;
  }
  deps.logger.info('events recovered', { requestId: request.requestId, siteId, replayed: body.replayed });
  return { replayed: false, body };
}

export interface ReplayDeadRequest extends RequestContext {
  siteId: string;
  since: Date;
  until: Date;
  actor: Actor;
  /** Replay at most this many (the oldest); all by default. */
  limit?: number;
}

/**
 * Replays every DEAD event of the site created in `[since, until)`, oldest first, in batches of up to
 * {@link BATCH}: each batch is one transaction that puts its events back to PENDING in one statement and writes
 * their `EVENT.REPLAYED` audit entries (naming the actor) in another, then one enqueue of the batch's jobs under
 * each event's next cycle id, the same as a single replay (`replayEvent`) does for one. An event that stopped being
 * DEAD meanwhile (replayed by someone else) is skipped, not counted. Partners reach it through
 * {@link recoverEvents}; operators replay a whole site's DEAD events with it (`opsReplayDeadEvents`); the
 * auto-replay refills its window with it.
 */
export async function replayDeadEvents(deps: ReplayDeps, request: ReplayDeadRequest): Promise<RecoverEventsResult> {
  const { siteId, since, until, actor, requestId } = request;
  const limit = request.limit ?? Infinity;
  const eventIds: string[] = [];
  let replayed = 0;
  let after: CursorPosition | undefined;
  while (replayed < limit) {
    const want = Math.min(BATCH, limit - replayed);
    const { reopened, cycles } = await deps.db.$transaction(async (tx) => {
      const rows = await deps.events.reopenDead(tx, siteId, { since, until, after }, want);
      await writeAudits(
        tx,
        rows.map((row) => ({
          actor,
          action: EVENT_REPLAYED,
          entityType: 'outbox_event',
          entityId: row.id,
          siteId,
          metadata: { previousStatus: 'DEAD' },
        })),
      );
      return {
        reopened: rows,
        cycles: await deps.events.cycles(
          rows.map((row) => row.id),
          tx,
        ),
      };
    });
    const jobs = reopened.map((row) => ({ eventId: row.id, cycle: cycles.get(row.id) ?? 1, requestId }));
    for (const { eventId, cycle } of jobs) {
      // The event keeps the request id that wrote it; this cycle's lines carry the replaying request's.
      deps.logger.info('event replayed', { requestId, eventId, siteId, cycle, previousStatus: 'DEAD', actorType: actor.type });
    }
    await deps.outbox.enqueue(jobs);
    replayed += reopened.length;
    for (const row of reopened) if (eventIds.length < RECOVERED_IDS_LISTED) eventIds.push(row.id);
    // Fewer than asked: no DEAD event is left in the window (the lock skips none, it waits for them).
    if (reopened.length < want) break;
    after = reopened[reopened.length - 1];
  }
  return { replayed, eventIds };
}

async function storedAnswer(deps: ReplayDeps, siteId: string, idempotency: ReplayIdempotency): Promise<RecoverEventsResult | null> {
  const record = await deps.idempotencyRecords.find({ siteId, route: ROUTE, key: idempotency.key }, deps.clock.now());
  if (!record) return null;
  if (record.fingerprint !== idempotency.fingerprint) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request.');
  }
  return record.responseBody as unknown as RecoverEventsResult;
}
