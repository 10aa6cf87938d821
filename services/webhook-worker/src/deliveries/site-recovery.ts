import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { KasaConfig } from '@kasa/config';
import { repeatLimited, type Logger, type RepeatLimitedLog } from '@kasa/logger';
import { autoReplayJobId, type AutoReplayJob, type AutoReplayTrigger } from '@kasa/queue';
import type { RedisClient } from '@kasa/redis';
import type { SecretBox } from '@kasa/secret-box';
import { signedHeaders, webhookBody, type WebhookSender } from '@kasa/webhook-sender';
import type { WorkerMetrics } from '../metrics/worker-metrics.js';
import { signingSecrets } from './deliver-event.job.js';
import type { AttemptOutcome, DeliveryRepository } from './delivery.repository.js';
import type { SiteSlots } from './site-slots.js';

export interface SiteRecoveryDeps {
  config: Pick<KasaConfig, 'webhookAutoReplayWindowHours' | 'webhookProbeIntervalMs' | 'redisPrefix'>;
  deliveries: DeliveryRepository;
  autoReplayQueue: Queue<AutoReplayJob>;
  /** Command connection for the probe claims (one worker probes a site per interval). */
  queueConnection: RedisClient;
  sender: WebhookSender;
  secrets: SecretBox;
  slots: SiteSlots;
  metrics: WorkerMetrics;
  logger: Logger;
  now?: () => number;
}

/**
 * Notices when a site with DEAD events answers again and asks the ledger to replay them
 * (`webhook-auto-replay` queue; the ledger's auto-replay paces and audits the replays, see
 * services/ledger/src/events/auto-replay.use-case.ts). A site answers again when:
 *
 * - a delivery to it succeeds (told by the delivery job through {@link onOutcome}), or
 * - a probe does: every WEBHOOK_PROBE_INTERVAL_MS the worker reads the sites with DEAD events of the
 *   auto-replay window, and POSTs one signed `ping` test webhook (`test: true`, a fresh eventId, as
 *   `POST /external/test/webhooks` sends) to each that had no successful delivery here since the last round.
 *   A probe takes one of the site's slots, so a paused (breaker) or busy site is not probed, and its result
 *   feeds the site's health like any attempt. Of several workers, one probes a site per interval (a Redis claim).
 *
 * Asking is idempotent per site: the request's job id is the site's, so what several workers ask while one
 * request is queued or running is one request.
 */
export class SiteRecovery {
  /** Sites with DEAD events in the window, from the last read plus the events gone DEAD here since. */
  private readonly backlog = new Set<string>();
  private readonly lastDelivered = new Map<string, number>();
  private readonly now: () => number;
  private readonly failures: RepeatLimitedLog;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly deps: SiteRecoveryDeps) {
    this.now = deps.now ?? Date.now;
    this.failures = repeatLimited(deps.logger);
  }

  private get enabled(): boolean {
    return this.deps.config.webhookAutoReplayWindowHours > 0;
  }

  start(): void {
    if (!this.enabled || !this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the rounds; waits (at most 5 s: a Redis outage can hold a round) for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.round) await Promise.race([this.round, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }

  /** Every delivered attempt and every event gone DEAD, from the delivery job. */
  onOutcome(siteId: string, outcome: AttemptOutcome): void {
    if (!this.enabled) return;
    if (outcome === 'DEAD') {
      this.backlog.add(siteId);
      return;
    }
    if (outcome !== 'DELIVERED') return;
    this.lastDelivered.set(siteId, this.now());
    if (!this.backlog.delete(siteId)) return;
    void this.requestReplay(siteId, 'delivery');
  }

  /** One round: read the sites with a DEAD backlog, then probe those with no delivery here since the last round. */
  async runOnce(): Promise<{ sites: number; probed: number; answered: number }> {
    const intervalMs = this.deps.config.webhookProbeIntervalMs;
    const since = new Date(this.now() - this.deps.config.webhookAutoReplayWindowHours * 3_600_000);
    const sites = await this.deps.deliveries.sitesWithDeadEvents(since);
    this.backlog.clear();
    for (const site of sites) this.backlog.add(site.siteId);
    for (const [siteId, at] of this.lastDelivered) if (this.now() - at > intervalMs) this.lastDelivered.delete(siteId);
    let probed = 0;
    let answered = 0;
    for (const site of sites) {
      const delivered = this.lastDelivered.get(site.siteId);
      if (delivered !== undefined && this.now() - delivered <= intervalMs) {
        // It answers: a delivery succeeded after the site had a DEAD backlog read.
        this.backlog.delete(site.siteId);
        await this.requestReplay(site.siteId, 'delivery');
        continue;
      }
      if (!(await this.claimProbe(site.siteId, intervalMs))) continue;
      const outcome = await this.probe(site.siteId);
      if (outcome === 'skipped') continue;
      probed += 1;
      this.deps.metrics.probes.inc({ outcome });
      if (outcome !== 'answered') continue;
      answered += 1;
      this.backlog.delete(site.siteId);
      await this.requestReplay(site.siteId, 'probe');
    }
    return { sites: sites.length, probed, answered };
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.failures('warn', 'webhook probe round failed; retrying next round', { error }))
        .finally(() => {
          this.round = undefined;
          this.schedule(this.deps.config.webhookProbeIntervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async claimProbe(siteId: string, intervalMs: number): Promise<boolean> {
    const key = `${this.deps.config.redisPrefix}:webhook-worker:probe:${siteId}`;
    return (await this.deps.queueConnection.set(key, '1', 'PX', Math.max(100, intervalMs - 50), 'NX')) === 'OK';
  }

  /** POSTs one signed ping to the site's endpoint through a slot of the site; `skipped` when none was free. */
  private async probe(siteId: string): Promise<'answered' | 'failed' | 'skipped'> {
    const admission = await this.deps.slots.acquire(siteId);
    if (!admission.ok) return 'skipped';
    let outcome: 'delivered' | 'failed' | 'none' = 'none';
    try {
      const target = await this.deps.deliveries.probeTarget(siteId);
      const nowMs = this.now();
      const secrets = target?.site.webhookUrl ? signingSecrets(this.deps.secrets, target, nowMs) : [];
      if (!target?.site.webhookUrl || secrets.length === 0) return 'skipped';
      const eventId = randomUUID();
      const createdAt = new Date(nowMs).toISOString();
      const body = webhookBody({ eventId, type: 'ping', createdAt, livemode: target.livemode, test: true, data: {} });
      const result = await this.deps.sender.send(target.site.webhookUrl, signedHeaders(secrets, eventId, body, nowMs), body);
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      outcome = ok ? 'delivered' : 'failed';
      this.deps.logger.info('webhook probe sent', { siteId, answered: ok, statusCode: result.statusCode, durationMs: result.durationMs });
      return ok ? 'answered' : 'failed';
    } finally {
      this.deps.slots.release(admission.ticket, outcome);
    }
  }

  private async requestReplay(siteId: string, trigger: AutoReplayTrigger): Promise<void> {
    try {
      await this.deps.autoReplayQueue.add(
        'auto-replay',
        { siteId, trigger, answeredAt: this.now() },
        { jobId: autoReplayJobId(siteId), removeOnComplete: true, removeOnFail: true, attempts: 3, backoff: 5_000 },
      );
      this.deps.metrics.autoReplayRequests.inc({ trigger });
      this.deps.logger.info('auto-replay requested', { siteId, trigger });
    } catch (error) {
      // Nothing is lost: the site stays in the next round's backlog read, and its next success asks again.
      this.failures('warn', 'auto-replay request failed; the next round asks again', { siteId, error });
    }
  }
}
