import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import type { Logger } from '@kasa/logger';
import type { DeliverEventJob } from '@kasa/queue';
import type { SecretBox } from '@kasa/secret-box';
import { buildWebhookHeaders } from '@kasa/webhook-signing';
import type { SiteSlots } from './site-slots.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';
import type { WorkerMetrics } from '../metrics/worker-metrics.js';
import type { AttemptOutcome, DeliveryRepository, EventToDeliver } from './delivery.repository.js';

export interface DeliverEventDeps {
  deliveries: DeliveryRepository;
  sender: WebhookSender;
  secrets: SecretBox;
  slots: SiteSlots;
  metrics: WorkerMetrics;
  logger: Logger;
  /** The clock, in milliseconds (tests may pin it). */
  now?: () => number;
}

/** What a finished job reports (kept only in logs: completed jobs are removed). */
export type DeliverEventResult = { attemptNo: number; statusCode: number | null } | { skipped: string };

const NO_URL = '(no webhook URL configured)';

/** The signing secrets, current first, then the previous one while its overlap window is open. */
export function signingSecrets(box: SecretBox, event: EventToDeliver, nowMs: number): string[] {
  const { site } = event;
  const secrets: string[] = [];
  if (site.webhookSecretEnc) secrets.push(box.open(site.webhookSecretEnc, event.siteId));
  if (site.previousWebhookSecretEnc && site.previousSecretExpiresAt && site.previousSecretExpiresAt.getTime() > nowMs) {
    secrets.push(box.open(site.previousWebhookSecretEnc, event.siteId));
  }
  return secrets;
}

/** The webhook body: the stored payload in its documented key order. */
export function webhookBody(payload: unknown): string {
  const value = payload as { eventId?: unknown; type?: unknown; createdAt?: unknown; data?: unknown };
  return JSON.stringify({ eventId: value.eventId, type: value.type, createdAt: value.createdAt, data: value.data });
}

/**
 * Delivers one event: loads it with its site's current URL and secrets, signs afresh, POSTs, records the
 * attempt, and marks the event DELIVERED on 2xx or DEAD when the last attempt fails. A failure throws so
 * BullMQ retries with its fixed backoff. An event that is no longer PENDING (a duplicate job after a crash)
 * is skipped; a missing event cannot be fixed by retrying.
 */
export function deliverEventProcessor(deps: DeliverEventDeps): Processor<DeliverEventJob, DeliverEventResult> {
  const now = deps.now ?? Date.now;
  // Remembers each job's site, so a job bounced by the per-site limit is bounced again without a query.
  const siteOfEvent = new Map<string, string>();

  const defer = async (job: Job<DeliverEventJob>, siteId: string, token: string | undefined): Promise<never> => {
    if (siteOfEvent.size > 10_000) siteOfEvent.clear();
    siteOfEvent.set(job.data.eventId, siteId);
    deps.metrics.deferred.inc();
    await job.moveToDelayed(now() + 200 + Math.floor(Math.random() * 800), token);
    throw new DelayedError();
  };

  return async (job, token) => {
    const { eventId } = job.data;
    const knownSite = siteOfEvent.get(eventId);
    if (knownSite !== undefined && !deps.slots.tryAcquire(knownSite)) return defer(job, knownSite, token);
    let held = knownSite;
    try {
      const event = await deps.deliveries.loadEvent(eventId);
      if (!event) throw new UnrecoverableError(`event ${eventId} does not exist`);
      if (event.status !== 'PENDING') return { skipped: event.status };
      if (held === undefined) {
        if (!deps.slots.tryAcquire(event.siteId)) return await defer(job, event.siteId, token);
        held = event.siteId;
      }
      siteOfEvent.delete(eventId);
      return await attempt(deps, job, event, now());
    } finally {
      if (held !== undefined) deps.slots.release(held);
    }
  };
}

async function attempt(
  deps: DeliverEventDeps,
  job: Job<DeliverEventJob>,
  event: EventToDeliver,
  nowMs: number,
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
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Kasa-Webhooks/1.0',
      ...buildWebhookHeaders({ secrets, eventId: event.id, timestamp: Math.floor(nowMs / 1000), rawBody: body }),
    };
    result = await deps.sender.send(url, headers, body);
  }
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const outcome: AttemptOutcome = delivered ? 'DELIVERED' : lastAttempt ? 'DEAD' : 'RETRY';
  const attemptNo = await deps.deliveries.recordAttempt(event.id, { ...result, url: url ?? NO_URL }, outcome);
  const label = outcome.toLowerCase();
  deps.metrics.attempts.inc({ outcome: label });
  deps.metrics.duration.observe({ outcome: label }, result.durationMs / 1000);
  if (delivered) return { attemptNo, statusCode: result.statusCode };
  const reason = result.error ?? `HTTP ${result.statusCode}`;
  if (outcome === 'DEAD') deps.logger.warn('webhook event is DEAD', { eventId: event.id, siteId: event.siteId, attemptNo, reason });
  throw new Error(`delivery attempt ${attemptNo} failed: ${reason}`);
}
