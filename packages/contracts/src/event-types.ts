/**
 * Every webhook event type, declared once. The type lists (always sent, opt-in), the webhook bodies' `type` enums,
 * the OpenAPI `webhooks` entries (body schema, example, when sent), the test webhook's samples, the webhook config's
 * validation and docs/webhooks.md's tables are derived from this table. A new event type is an entry here and the
 * ledger code that writes it (CONTRIBUTING.md, Recipes).
 */
import type { DepositStatus, WithdrawalStatus } from './statuses.js';

/** The record an event is about: its `data` is that record as the partner's status lookup returns it. */
export type EventRecord = 'intent' | 'withdrawal';

export interface EventTypeEntry<R extends EventRecord = EventRecord> {
  readonly record: R;
  /** `always`: every site receives it (SPEC section 6). `opt-in`: only a site that listed it in `eventTypes`. */
  readonly delivery: 'always' | 'opt-in';
  /** The record's status in `data` right after the change (the docs' table, the test webhook's sample). */
  readonly status: R extends 'intent' ? DepositStatus : WithdrawalStatus;
  /** When it is sent and what a receiver does with it, in one or two sentences (docs/webhooks.md's tables). */
  readonly sentWhen: string;
}

type Entry = EventTypeEntry<'intent'> | EventTypeEntry<'withdrawal'>;

export const EVENT_TYPE_REGISTRY = {
  'intent.approved': {
    record: 'intent',
    delivery: 'always',
    status: 'APPROVED',
    sentWhen: 'An operator (or the straight-through rule) approved the deposit: credit the user `data.amount`.',
  },
  'intent.rejected': {
    record: 'intent',
    delivery: 'always',
    status: 'REJECTED',
    sentWhen: 'An operator rejected the deposit (`data.rejectedReason` says why): credit nothing.',
  },
  'withdrawal.sent': {
    record: 'withdrawal',
    delivery: 'always',
    status: 'SENT',
    sentWhen: "The money was sent to the beneficiary's IBAN: the withdrawal is final unless the bank returns it (`withdrawal.returned`).",
  },
  'withdrawal.rejected': {
    record: 'withdrawal',
    delivery: 'always',
    status: 'REJECTED',
    sentWhen: "An operator rejected the withdrawal (`data.rejectedReason` says why): no money was sent; restore the user's balance.",
  },
  'withdrawal.returned': {
    record: 'withdrawal',
    delivery: 'always',
    status: 'RETURNED',
    sentWhen: "The beneficiary's bank returned a sent payout (`data.returnReason` says why): restore the user's balance.",
  },
  'intent.received': {
    record: 'intent',
    delivery: 'opt-in',
    status: 'PENDING_REVIEW',
    sentWhen:
      "Money reached the deposit and it now waits for an operator's review (once per transfer that adds money). Do not credit yet: wait for `intent.approved`.",
  },
  'intent.auto_cancelled': {
    record: 'intent',
    delivery: 'opt-in',
    status: 'AUTO_CANCELLED',
    sentWhen:
      'Nobody paid before `expiresAt`: the deposit was cancelled automatically (written in the same transaction as the cancellation). Close the pending deposit.',
  },
  'intent.late_arrival': {
    record: 'intent',
    delivery: 'opt-in',
    status: 'LATE_ARRIVAL',
    sentWhen:
      'Money arrived after the deposit expired. An operator decides what happens to it (approval, a rejection or a return to the sender); do not credit yet.',
  },
  'intent.topped_up': {
    record: 'intent',
    delivery: 'opt-in',
    status: 'APPROVED',
    sentWhen: 'An operator credited money that arrived after approval to the approved deposit (above). Credit `topUp.amount`.',
  },
  'withdrawal.approved': {
    record: 'withdrawal',
    delivery: 'opt-in',
    status: 'APPROVED',
    sentWhen:
      "The withdrawal was approved (by both operators above the four-eyes threshold) and its amount reserved from the site's available balance; the money is sent next. Not final: wait for `withdrawal.sent`, `withdrawal.rejected` or `withdrawal.returned`.",
  },
} as const satisfies Record<`${EventRecord}.${string}`, Entry>;

type Registry = typeof EVENT_TYPE_REGISTRY;
export type EventType = keyof Registry;
/** The event types of one delivery kind. */
type Delivered<D extends 'always' | 'opt-in'> = { [K in EventType]: Registry[K]['delivery'] extends D ? K : never }[EventType];
export type AlwaysSentEventType = Delivered<'always'>;
export type OptInEventType = Delivered<'opt-in'>;
/** The event types about one kind of record. */
export type EventTypeOf<R extends EventRecord> = { [K in EventType]: Registry[K]['record'] extends R ? K : never }[EventType];

/** The entry of a type. */
export function eventTypeEntry(type: EventType): Entry {
  return EVENT_TYPE_REGISTRY[type];
}

/** Every event type, in the table's order (always sent first). */
export const EVENT_TYPES = Object.keys(EVENT_TYPE_REGISTRY) as EventType[];
/** The SPEC's five event types (section 6): every site receives them; they cannot be unsubscribed. */
export const ALWAYS_SENT_EVENT_TYPES = EVENT_TYPES.filter(
  (type): type is AlwaysSentEventType => eventTypeEntry(type).delivery === 'always',
);
/**
 * Event types a site receives only when it chose them (`eventTypes` of the webhook config PUT); an event of a type
 * the site did not choose is not written at all (docs/webhooks.md, Choose your events).
 */
export const OPT_IN_EVENT_TYPES = EVENT_TYPES.filter((type): type is OptInEventType => eventTypeEntry(type).delivery === 'opt-in');

/** The event types about one kind of record, in the table's order. */
export function eventTypesOf<R extends EventRecord>(record: R): Array<EventTypeOf<R>> {
  return EVENT_TYPES.filter((type): type is EventTypeOf<R> => eventTypeEntry(type).record === record);
}

/** A list of types in words: "`a`, `b` or `c`". */
export function typesInWords(types: readonly string[], last = 'or'): string {
  const quoted = types.map((type) => `\`${type}\``);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} ${last} ${quoted[quoted.length - 1]}`;
}
