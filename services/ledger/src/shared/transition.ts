import type { Prisma, PrismaClient } from '@kasa/db';
import type { Logger } from '@kasa/logger';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';
import type { WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import type { RequestContext } from './request-context.js';

export interface TransitionDeps {
  db: PrismaClient;
  outbox: OutboxPublisher;
  logger: Logger;
}

/** The business step a transition took, logged once it has committed (`deposit approved`, ...). */
export interface TransitionStep {
  message: string;
  fields: Record<string, unknown>;
}

/** What a transition's transaction produced: the answer for the caller, the step to log and the events to enqueue. */
export interface TransitionOutcome<T> {
  result: T;
  step: TransitionStep;
  events: WrittenOutboxEvent[];
}

// Transitions queue on a row lock when operators collide; give them room before Prisma's 5 s default aborts.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Runs a state change, its audit entry, journal postings and outbox rows in one transaction, then logs the
 * step and each event written (with the request id, which the events also carry) and hands the committed
 * events to the publisher. An AppError thrown inside rolls everything back, and nothing is logged.
 */
export async function commitTransition<T>(
  deps: TransitionDeps,
  context: RequestContext,
  work: (tx: Prisma.TransactionClient) => Promise<TransitionOutcome<T>>,
): Promise<T> {
  const outcome = await deps.db.$transaction(work, TRANSACTION_OPTIONS);
  const { requestId } = context;
  deps.logger.info(outcome.step.message, { requestId, ...outcome.step.fields });
  for (const event of outcome.events) {
    deps.logger.info('outbox event written', {
      requestId,
      eventId: event.eventId,
      type: event.type,
      siteId: event.siteId,
      entityId: event.entityId,
    });
  }
  await deps.outbox.publish(
    outcome.events.map((event) => event.eventId),
    requestId,
  );
  return outcome.result;
}
