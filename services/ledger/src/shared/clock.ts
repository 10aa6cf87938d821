/** The ledger's source of "now": the system clock in production, a clock a test controls instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** An optional instant as the APIs write it: ISO 8601 in UTC, or null. */
export const isoOrNull = (value: Date | null): string | null => (value ? value.toISOString() : null);
