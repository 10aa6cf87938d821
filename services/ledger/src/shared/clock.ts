/**
 * The ledger's source of "now" for every decision it makes by time (an intent's expiry, the expiry sweep's
 * cut-off, whether a deposit page is still payable, token and stored-answer expiry): the system clock in
 * production, a clock the test controls instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `ms` milliseconds after the clock's now. */
export const msFromNow = (clock: Clock, ms: number): Date => new Date(clock.now().getTime() + ms);
