import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import { isDependencyUnavailable } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import type { DeliverEventJob } from '@kasa/queue';
import type { SecretBox } from '@kasa/secret-box';
import { signedHeaders, webhookBody, type SendResult, type WebhookSender } from '@kasa/webhook-sender';
import type { DeferReason, SiteSlots, SlotOutcome } from './site-slots.js';
import type { WorkerMetrics } from '../metrics/worker-metrics.js';
import type { AttemptOutcome, DeliveryRepository, EventToDeliver } from './delivery.repository.js';
import { isLastAttempt, type RetrySchedule } from './retry-schedule.js';

export interface DeliverEventDeps {
  deliveries: DeliveryRepository;
  sender: WebhookSender;
  secrets: SecretBox;
  slots: SiteSlots;
  metrics: WorkerMetrics;
  logger: Logger;
  /** How many attempts a cycle has (the delays are the worker's BullMQ backoff strategy, from the same schedule). */
  schedule: RetrySchedule;
  /** Told of every delivered attempt and every event gone DEAD (auto-replay watches for a site answering again). */
  onOutcome?: (siteId: string, outcome: AttemptOutcome) => void;
  /** The clock, in milliseconds (tests may pin it). */
  now?: () => number;
}

/**
 * A delivery attempt the partner's endpoint failed (not 2xx, no answer): BullMQ retries it on the schedule.
 * Any other error out of the processor is Kasa's own trouble, which the worker logs as a warning.
 */
export class AttemptFailedError extends Error {
  override readonly name = 'AttemptFailedError';
}

/** What a finished job reports (kept only in logs: completed jobs are removed). */
export type DeliverEventResult = { attemptNo: number; statusCode: number | null } | { skipped: string };

const NO_URL = '(no webhook URL configured)';

/** The signing secrets, current first, then the previous one while its overlap window is open. */
export function signingSecrets(box: Pick<SecretBox, 'open'>, event: Pick<EventToDeliver, 'siteId' | 'site'>, nowMs: number): string[] {
  const { site } = event;
  const secrets: string[] = [];
  if (site.webhookSecretEnc) secrets.push(box.open(site.webhookSecretEnc, event.siteId));
  if (site.previousWebhookSecretEnc && site.previousSecretExpiresAt && site.previousSecretExpiresAt.getTime() > nowMs) {
    secrets.push(box.open(site.previousWebhookSecretEnc, event.siteId));
  }
  return secrets;
}

/**
 * Opens sealed secrets once per sealed value: AES-GCM per delivery was a visible share of a delivery's CPU. A
 * rotation seals a new value, so a changed secret is a new key here; the map is bounded by `max` entries.
 */
export function openedOnce(box: Pick<SecretBox, 'open'>, max = 1_000): Pick<SecretBox, 'open'> {
  const opened = new Map<string, string>();
  return {
    open(sealed, associatedData) {
      const key = `${associatedData}\n${sealed}`;
      let plain = opened.get(key);
      if (plain === undefined) {
        plain = box.open(sealed, associatedData);
        if (opened.size >= max) opened.clear();
        opened.set(key, plain);
      }
      return plain;
    },
  };
}

/** How long a job waits (plus up to as much again, spread) when PostgreSQL cannot be reached. */
const DATABASE_RETRY_MS = 2_000;

/**
 * Delivers one event: loads it with its site's current URL and secrets, signs afresh, POSTs, records the
 * attempt, and marks the event DELIVERED on 2xx or DEAD when the cycle's last attempt ({@link RetrySchedule})
 * fails. A failure throws so BullMQ retries after the schedule's jittered delay; the last one throws BullMQ's
 * `UnrecoverableError`, so no further run happens whatever the job's own bound. An event that is no longer PENDING (a duplicate job after a crash)
 * is skipped; a missing event cannot be fixed by retrying.
 *
 * Before sending, the job needs a slot of its site ({@link SiteSlots}: a share that shrinks to one for a
 * failing site, a breaker for a site that stopped answering). Without one the job is deferred: moved to
 * BullMQ's delayed set with `skipAttempt`, so the deferral is not one of the event's attempts, and the same
 * job (same id, same attempt count) comes back later; nothing is sent, recorded or lost.
 */
export function deliverEventProcessor(deps: DeliverEventDeps): Processor<DeliverEventJob, DeliverEventResult> {
  const now = deps.now ?? Date.now;
  const attemptDeps = { ...deps, secrets: openedOnce(deps.secrets) };
  // Remembers each deferred job's site, so a job bounced again is bounced without a query.
  const siteOfEvent = new Map<string, string>();

  const defer = async (
    job: Job<DeliverEventJob>,
    siteId: string,
    reason: DeferReason,
    retryAt: number,
    token: string | undefined,
  ): Promise<never> => {
    if (siteOfEvent.size > 10_000) siteOfEvent.clear();
    siteOfEvent.set(job.data.eventId, siteId);
    deps.metrics.deferred.inc({ reason });
    await job.moveToDelayed(retryAt, token);
    throw new DelayedError();
  };

  /**
   * Loads the event. While PostgreSQL is unreachable the job waits in the delayed set without using one of
   * its attempts (as a deferral does): an outage of our own database is not the partner's failed attempt,
   * and a job that ran out of attempts that way would leave its event PENDING with no job to deliver it.
   */
  const load = async (job: Job<DeliverEventJob>, token: string | undefined): Promise<EventToDeliver> => {
    let event: EventToDeliver | null;
    try {
      event = await deps.deliveries.loadEvent(job.data.eventId);
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      await job.moveToDelayed(now() + DATABASE_RETRY_MS + Math.floor(Math.random() * DATABASE_RETRY_MS), token);
      throw new DelayedError();
    }
    if (!event) throw new UnrecoverableError(`event ${job.data.eventId} does not exist`);
    return event;
  };

  return async (job, token) => {
    const { eventId } = job.data;
    let siteId = siteOfEvent.get(eventId);
    let event: EventToDeliver | undefined;
    if (siteId === undefined) {
      event = await load(job, token);
      if (event.status !== 'PENDING') return { skipped: event.status };
      siteId = event.siteId;
    }
    const admission = await deps.slots.acquire(siteId);
    if (!admission.ok) return defer(job, siteId, admission.reason, admission.retryAt, token);
    siteOfEvent.delete(eventId);
    const { ticket } = admission;
    try {
      // A job bounced before was let in on its remembered site; its event is read now.
      event ??= await load(job, token);
      if (event.status !== 'PENDING') return { skipped: event.status };
      return await attempt(attemptDeps, job, event, now(), (outcome) => deps.slots.release(ticket, outcome));
    } finally {
      deps.slots.release(ticket, 'none');
    }
  };
}

/** One attempt; `sent` hands the site's slot back as soon as the receiver has answered or not. */
async function attempt(
  deps: Omit<DeliverEventDeps, 'secrets'> & { secrets: Pick<SecretBox, 'open'> },
  job: Job<DeliverEventJob>,
  event: EventToDeliver,
  nowMs: number,
  sent: (outcome: SlotOutcome) => void,
): Promise<DeliverEventResult> {
  const url = event.site.webhookUrl;
  let result: SendResult;
  let secrets: string[] = [];
  let setupError: string | null = null;
  try {
    secrets = signingSecrets(deps.secrets, event, nowMs);
  } catch {
    setupError = 'the signing secret cannot be decrypted with the configured SECRET_ENCRYPTION_KEY';
  }
  if (!url || secrets.length === 0 || setupError) {
    setupError ??= 'the site has no webhook URL or signing secret configured';
    result = { startedAt: new Date(nowMs), durationMs: 0, statusCode: null, error: setupError, responseBody: null };
  } else {
    const body = webhookBody(event.payload);
    const headers = signedHeaders(secrets, event.id, body, nowMs);
    result = await deps.sender.send(url, headers, body);
  }
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  // Nothing left the worker without a URL or a secret: that says nothing about the partner's endpoint.
  sent(setupError ? 'none' : delivered ? 'delivered' : 'failed');
  // Jobs queued before the worker owned the schedule carry their own attempt count; whichever ends first counts.
  const lastAttempt = isLastAttempt(deps.schedule, job.attemptsMade + 1) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const outcome: AttemptOutcome = delivered ? 'DELIVERED' : lastAttempt ? 'DEAD' : 'RETRY';
  const attemptNo = await deps.deliveries.recordAttempt(event.id, { ...result, url: url ?? NO_URL }, outcome);
  if (outcome !== 'RETRY') deps.onOutcome?.(event.siteId, outcome);
  const label = outcome.toLowerCase();
  deps.metrics.attempts.inc({ outcome: label });
  deps.metrics.duration.observe({ outcome: label }, result.durationMs / 1000);
  // One line per attempt, carrying the id of the request that caused the event (never the URL: its query
  // string may hold a partner's secret).
  const fields = {
    requestId: event.requestId,
    eventId: event.id,
    siteId: event.siteId,
    attemptNo,
    outcome,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
  };
  if (delivered) {
    deps.logger.info('webhook delivered', fields);
    return { attemptNo, statusCode: result.statusCode };
  }
  const reason = result.error ?? `HTTP ${result.statusCode}`;
  if (outcome === 'DEAD') {
    deps.logger.warn('webhook event is DEAD', { ...fields, reason });
    throw new UnrecoverableError(`delivery attempt ${attemptNo} failed, the cycle's last: ${reason}`);
  }
  deps.logger.info('webhook attempt failed', { ...fields, reason });
  throw new AttemptFailedError(`delivery attempt ${attemptNo} failed: ${reason}`);
}
