import { ALWAYS_SENT_EVENT_TYPES, EVENT_TYPES, OPT_IN_EVENT_TYPES, type EventType, type OptInEventType } from '@kasa/contracts';
import { AppError } from '@kasa/http';

/**
 * A site's event subscriptions (docs/webhooks.md, Choose your events). The SPEC's five types are always sent and
 * cannot be unsubscribed; a site adds opt-in types by listing them. Only the opt-in choice is stored
 * (`sites.webhook_event_types`, empty for a site that never chose), so a new always-sent type would reach every
 * site without a migration.
 */
export function isOptIn(type: EventType): type is OptInEventType {
  return (OPT_IN_EVENT_TYPES as readonly string[]).includes(type);
}

/** Whether a site whose stored opt-in choice is `optIn` receives `type`. */
export function receives(optIn: readonly string[], type: EventType): boolean {
  return !isOptIn(type) || optIn.includes(type);
}

/** Every type a site receives, in EVENT_TYPES order (the five always sent first): what the config answers. */
export function subscribedEventTypes(optIn: readonly string[]): EventType[] {
  return EVENT_TYPES.filter((type) => receives(optIn, type));
}

/**
 * The opt-in choice to store for a PUT's `eventTypes` (already checked against the schema: known, unique types).
 * A list leaving out one of the five always sent is refused: they cannot be unsubscribed, and a partner that
 * thinks it dropped one would be surprised by its arrival.
 */
export function optInChoiceOf(eventTypes: readonly EventType[]): OptInEventType[] {
  const missing = ALWAYS_SENT_EVENT_TYPES.filter((type) => !eventTypes.includes(type));
  if (missing.length > 0) {
    throw AppError.validation(
      [{ field: 'eventTypes', message: `must include ${missing.join(', ')}: the five event types of the SPEC are always sent` }],
      'The event types leave out types that are always sent; nothing was changed.',
    );
  }
  return OPT_IN_EVENT_TYPES.filter((type) => eventTypes.includes(type));
}

/** Why an event a change must announce cannot be written, as the 409 the caller's transaction rolls back on. */
export function notSubscribed(type: EventType): AppError {
  const remedy =
    type === 'intent.topped_up'
      ? 'return the money to its sender instead, or ask the partner to subscribe to intent.topped_up'
      : `ask the partner to subscribe to ${type}`;
  return AppError.conflict('invalid_transition', `The site does not receive ${type}; ${remedy}. Nothing was changed.`);
}
