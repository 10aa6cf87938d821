import type { KasaConfig } from '@kasa/config';

/**
 * The worker's retry rule for a failed delivery attempt (SPEC 6: at most 8 attempts, about 5 minutes apart),
 * stated here where it runs: the ledger's publisher only enqueues and names this backoff.
 *
 * - `maxAttempts` attempts per delivery cycle (WEBHOOK_MAX_ATTEMPTS, 8); the last one's failure makes the event DEAD.
 * - Between two attempts: `delayMs` (WEBHOOK_RETRY_DELAY_MS, 5 minutes) plus or minus `jitter` of it
 *   (WEBHOOK_RETRY_JITTER_PERCENT, 10%), drawn afresh per retry, so the events that failed together during an
 *   outage come back spread over a window of 2 x jitter x delay (one minute) instead of all at once.
 */
export interface RetrySchedule {
  maxAttempts: number;
  delayMs: number;
  /** A fraction in [0, 0.5]: the most a retry's wait strays from `delayMs`, either way. */
  jitter: number;
}

/** What the worker does after a failed attempt. */
export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

export function retryScheduleFrom(
  config: Pick<KasaConfig, 'webhookMaxAttempts' | 'webhookRetryDelayMs' | 'webhookRetryJitterPercent'>,
): RetrySchedule {
  return { maxAttempts: config.webhookMaxAttempts, delayMs: config.webhookRetryDelayMs, jitter: config.webhookRetryJitterPercent / 100 };
}

/** True when attempt number `attemptNo` (1-based, within the cycle) is the cycle's last. */
export function isLastAttempt(schedule: RetrySchedule, attemptNo: number): boolean {
  return attemptNo >= schedule.maxAttempts;
}

/** How long to wait before the next attempt: the delay moved by up to the jitter either way (`random` in [0, 1)). */
export function retryDelayMs(schedule: RetrySchedule, random: () => number = Math.random): number {
  const spread = schedule.delayMs * schedule.jitter;
  return Math.max(0, Math.round(schedule.delayMs - spread + 2 * spread * random()));
}

/** The decision after attempt `attemptNo` failed: wait and retry, or stop (the event is DEAD). */
export function afterFailedAttempt(schedule: RetrySchedule, attemptNo: number, random: () => number = Math.random): RetryDecision {
  return isLastAttempt(schedule, attemptNo) ? { retry: false } : { retry: true, delayMs: retryDelayMs(schedule, random) };
}
