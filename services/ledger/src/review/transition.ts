import type { Prisma, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { actorOf } from '../shared/operator-principal.js';
import { inScope } from '../shared/site-scope.js';
import type { OutboxPublisher } from '../outbox/outbox.publisher.js';
import {
  outboxInsert,
  prepareEventIfSubscribed,
  prepareOutboxEvent,
  type NewOutboxEvent,
  type WrittenOutboxEvent,
} from '../outbox/outbox.repository.js';
import { auditInsert, type AuditEntry } from '../shared/audit.repository.js';
import { writeTogether, type Writes } from '../shared/writes.repository.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest, RequestContext } from '../shared/request-context.js';

type Tx = Prisma.TransactionClient;

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
  /** Null for a step that logs nothing of its own (setting a transfer aside); a batch of transitions logs one each. */
  step: TransitionStep | readonly TransitionStep[] | null;
  events: WrittenOutboxEvent[];
}

// Transitions queue on a row lock when operators collide; give them room before Prisma's 5 s default aborts.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Runs `work` in one transaction with the transitions' room to wait on a row lock: for a use case that
 * changes records under review without being one transition (recording a transfer, asking for a return).
 * `timeoutMs` lengthens the time it may take for work known to be large (a statement file of many lines).
 */
export function inTransaction<T>(
  deps: { db: PrismaClient },
  work: (tx: Tx) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  const timeout = Math.max(TRANSACTION_OPTIONS.timeout, options.timeoutMs ?? 0);
  return deps.db.$transaction(work, { ...TRANSACTION_OPTIONS, timeout });
}

/** A step's event checked and built: refused unless the site receives it, or for `ifSubscribed`, null then. */
function prepareAnnounced(tx: Tx, { ifSubscribed, ...event }: NewOutboxEvent & { ifSubscribed?: true }) {
  return ifSubscribed ? prepareEventIfSubscribed(tx, event) : prepareOutboxEvent(tx, event);
}

/**
 * Runs a state change, its audit entry, journal postings and outbox rows in one transaction, then logs the
 * step and each event written (with the request id, which the events also carry) and hands the committed
 * events to the publisher. An AppError thrown inside rolls everything back, and nothing is logged.
 */
export async function commitTransition<T>(
  deps: TransitionDeps,
  context: RequestContext,
  work: (tx: Tx) => Promise<TransitionOutcome<T>>,
): Promise<T> {
  const outcome = await inTransaction(deps, work);
  const { requestId } = context;
  for (const step of outcome.step ? [outcome.step].flat() : []) deps.logger.info(step.message, { requestId, ...step.fields });
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

/** What a transition knows once its record changed: the locked row, the decision taken on it, the row after. */
export interface Changed<Row, Decision> {
  current: Row;
  decision: Decision;
  updated: Row;
  /** The journal transaction the step posted, if money moved. */
  journalTransactionId: string | null;
}

/** ... and, once its event is written, the event's id (null without one). */
export interface Announced<Row, Decision> extends Changed<Row, Decision> {
  eventId: string | null;
}

/**
 * One reviewed change of one record, as data: each record folder (deposits, withdrawals, returns, bank
 * transfers) builds these from its own `Step`s, its state table and its review repository.
 */
/**
 * A transition's decision: the status it moves to and, when deciding already wrote events (money reaching a deposit
 * writes its opt-in arrival events), those, published with the transition's own once committed.
 */
export interface Decided {
  to: string;
  events?: readonly WrittenOutboxEvent[];
}

export interface Transition<Row, Decision extends Decided, Result> {
  /** The record's audit entity type (`withdrawal`, `deposit_intent`, ...). */
  entityType: string;
  /** The 404's detail, for an id that is no uuid or names no row. */
  notFound: string;
  /** `SELECT ... FOR UPDATE` of the record; null when there is no such row. */
  lock(tx: Tx): Promise<Row | null>;
  /**
   * The site the locked record belongs to (null: the house's), checked against the operator's scope right after the
   * lock: outside it, the same 404 as a missing id (docs/operations.md, Operator scopes).
   */
  siteOf?(row: Row): string | null;
  /**
   * A control on the locked row before anything is decided (step-up on the amount the step would move): it reads the
   * record as this transaction holds it, so nothing that changes the record at the same moment slips past it. Throws
   * to refuse.
   */
  guard?(tx: Tx, current: Row): Promise<void> | void;
  /**
   * The decision on the locked row: the state table's next status (or its 409), and whatever else the step
   * needs under the lock (the money received, the intent a transfer pays); throws to refuse.
   */
  decide(tx: Tx, current: Row): Promise<Decision> | Decision;
  /** The conditional update (and the records that move with it); null when the row changed meanwhile. */
  update(tx: Tx, current: Row, decision: Decision): Promise<Row | null>;
  /** The 409's detail when `update` found the row changed (`state_changed`). */
  changedMeanwhile: string;
  /**
   * The journal posting, if money moves: its transaction id, or null when this step posts nothing. `alongside`: the
   * step's audit entry and event, for the posting's statement (the journal's `post`), when nothing the step writes
   * after the posting changes them; otherwise the recipe writes them itself, after `post`.
   */
  post?(
    tx: Tx,
    changed: Omit<Changed<Row, Decision>, 'journalTransactionId'>,
    alongside: (journalTransactionId: string) => Writes,
  ): Promise<string | null>;
  /** The audit entry (actor, entity type and id are the recipe's). */
  audit(changed: Changed<Row, Decision>): Pick<AuditEntry, 'action' | 'siteId' | 'metadata'>;
  /**
   * The webhook the step announces, if any: its request id is the recipe's, and so is its entity unless the event
   * reports on another record (a transfer's top-up reports on its intent). Written with the audit entry. An opt-in
   * type the site did not choose refuses the step (409, as a top-up that credits money must be heard), unless
   * `ifSubscribed`: an event that only informs is then not written and the step goes on.
   */
  event?(
    changed: Omit<Changed<Row, Decision>, 'journalTransactionId'>,
  ): (Omit<NewOutboxEvent, 'entityId' | 'requestId'> & { entityId?: string; ifSubscribed?: true }) | null;
  /** The business log line once committed, if the step has one. */
  log?(announced: Announced<Row, Decision>): TransitionStep;
  /** The answer for the caller. */
  result(announced: Announced<Row, Decision>): Result;
}

/**
 * The one recipe of a reviewed change: lock the record, guard it, decide from its state table, one conditional update,
 * the journal posting, the outbox event and the audit entry in one transaction (the last three in one statement when
 * the step allows); the log line and the publishing after commit ({@link commitTransition}).
 */
export async function runTransition<Row, Decision extends Decided, Result>(
  deps: TransitionDeps,
  request: OperatorRequest,
  entityId: string,
  transition: Transition<Row, Decision, Result>,
): Promise<Result> {
  if (!isUuid(entityId)) throw new AppError('not_found', transition.notFound);
  return commitTransition(deps, request, (tx) => transitionIn(tx, request, entityId, transition));
}

/**
 * {@link runTransition}'s work inside the caller's transaction, for a use case that takes several reviewed steps in one
 * (the follow-up worker finishing a payout with the claim on its follow-up): the caller commits, logs and publishes.
 */
export async function transitionIn<Row, Decision extends Decided, Result>(
  tx: Tx,
  request: OperatorRequest,
  entityId: string,
  transition: Transition<Row, Decision, Result>,
): Promise<TransitionOutcome<Result>> {
  if (!isUuid(entityId)) throw new AppError('not_found', transition.notFound);
  const current = await transition.lock(tx);
  if (!current || (transition.siteOf && !inScope(request.caller, transition.siteOf(current)))) {
    throw new AppError('not_found', transition.notFound);
  }
  await transition.guard?.(tx, current);
  const decision = await transition.decide(tx, current);
  const updated = await transition.update(tx, current, decision);
  if (!updated) throw AppError.conflict('state_changed', transition.changedMeanwhile);
  // The event's subscription is checked before the posting; its row is written with the audit entry, in the posting's
  // statement when the step allows, else in one statement after it. The posting takes the site's balance rows, which
  // every approval of the site waits for, so as few round trips as possible come after it (journal.repository.ts).
  const event = transition.event?.({ current, decision, updated }) ?? null;
  const prepared = event ? await prepareAnnounced(tx, { entityId, ...event, requestId: request.requestId }) : null;
  const writesFor = (journalTransactionId: string | null): Writes => [
    ...(prepared ? [outboxInsert([prepared.row])] : []),
    auditInsert([
      {
        actor: actorOf(request.caller),
        entityType: transition.entityType,
        entityId,
        ...transition.audit({ current, decision, updated, journalTransactionId }),
      },
    ]),
  ];
  const rode: { with: string | null } = { with: null };
  const journalTransactionId =
    (await transition.post?.(tx, { current, decision, updated }, (id) => {
      rode.with = id;
      return writesFor(id);
    })) ?? null;
  if (rode.with === null) await writeTogether(tx, writesFor(journalTransactionId));
  else if (rode.with !== journalTransactionId) throw new Error("a transition's audit entry rode on another posting than its own");
  const changed = { current, decision, updated, journalTransactionId };
  const events = [...(decision.events ?? []), ...(prepared ? [prepared.written] : [])];
  // The transition's own event is the last written.
  const announced = { ...changed, eventId: prepared?.written.eventId ?? null };
  return { result: transition.result(announced), step: transition.log?.(announced) ?? null, events };
}
