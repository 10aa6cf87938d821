import { RECOVER_WINDOW_MAX_DAYS, type ResponseOf } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { Actor } from '../shared/audit.repository.js';
import { msFromNow } from '../shared/clock.js';
import type { RequestContext } from '../shared/request-context.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import type { ReplayDeps, ReplayIdempotency } from './replay-event.use-case.js';
import { replayEvent } from './replay-event.use-case.js';

export type RecoverEventsResult = ResponseOf<'RecoverEventsResponse'>;

export interface RecoverEventsRequest extends RequestContext {
  siteId: string;
  since: Date;
  /** Defaults to the ledger's now. */
  until?: Date;
  actor: Actor;
  idempotency: ReplayIdempotency;
}

/** Events read and replayed per round: each replay is its own short transaction. */
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
  /**
   * Replays run at once, each its own transaction; 1 by default (strictly oldest first). More is faster (the
   * auto-replay's window) and keeps the order from one group of this many to the next only.
   */
  concurrency?: number;
}

/**
 * Replays every DEAD event of the site created in `[since, until)`, oldest first, in batches, each through
 * {@link replayEvent} (its own short transaction and audit entry naming the actor). An event that stopped being
 * DEAD meanwhile (replayed by someone else) is skipped, not counted. Partners reach it through
 * {@link recoverEvents}; operators replay a whole site's DEAD events with it (`opsReplayDeadEvents`).
 */
export async function replayDeadEvents(deps: ReplayDeps, request: ReplayDeadRequest): Promise<RecoverEventsResult> {
  const { siteId, since, until } = request;
  const limit = request.limit ?? Infinity;
  const concurrency = Math.max(1, request.concurrency ?? 1);
  const eventIds: string[] = [];
  let replayed = 0;
  let after: { createdAt: Date; id: string } | undefined;
  while (replayed < limit) {
    const want = Math.min(BATCH, limit - replayed);
    const batch = await deps.events.deadInWindow(siteId, since, until, after, want);
    const replayOne = async (eventId: string): Promise<boolean> => {
      try {
        await replayEvent(deps, { eventId, siteId, actor: request.actor, requestId: request.requestId });
        return true;
      } catch (error) {
        if (error instanceof AppError && error.reason === 'event_in_delivery') return false;
        throw error;
      }
    };
    for (let from = 0; from < batch.length; from += concurrency) {
      const group = batch.slice(from, from + concurrency);
      const done = await Promise.all(group.map((event) => replayOne(event.id)));
      group.forEach((event, index) => {
        if (!done[index]) return;
        replayed += 1;
        if (eventIds.length < RECOVERED_IDS_LISTED) eventIds.push(event.id);
      });
    }
    if (batch.length < want) break;
    after = batch[batch.length - 1];
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
