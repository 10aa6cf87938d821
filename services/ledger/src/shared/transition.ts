import type { Prisma, PrismaClient } from '@kasa/db';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';

export interface TransitionDeps {
  db: PrismaClient;
  outbox: OutboxPublisher;
}

/** What a transition's transaction produced: the answer for the caller and the events to enqueue. */
export interface TransitionOutcome<T> {
  result: T;
  eventIds: string[];
}

// Transitions queue on a row lock when operators collide; give them room before Prisma's 5 s default aborts.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Runs a state change, its audit entry, journal postings and outbox rows in one transaction, then hands
 * the committed events to the publisher. An AppError thrown inside rolls everything back.
 */
export async function commitTransition<T>(
  deps: TransitionDeps,
  work: (tx: Prisma.TransactionClient) => Promise<TransitionOutcome<T>>,
): Promise<T> {
  const outcome = await deps.db.$transaction(work, TRANSACTION_OPTIONS);
  await deps.outbox.publish(outcome.eventIds);
  return outcome.result;
}
