import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Delivery metrics of the worker, registered on the service's registry. */
export class WorkerMetrics {
  readonly attempts: Counter<'outcome'>;
  readonly duration: Histogram<'outcome'>;
  readonly deferred: Counter<'reason'>;
  readonly probes: Counter<'outcome'>;
  readonly autoReplayRequests: Counter<'trigger'>;

  /** `sites` reads the partner-isolation state of this process for its gauges. */
  constructor(registry: Registry, backlog: () => Promise<number>, sites?: { failingSites(): number; failingLaneInFlight(): number }) {
    this.attempts = new Counter({
      name: 'kasa_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered (2xx), retry (failed, will be retried), dead (last attempt failed)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'kasa_webhook_delivery_duration_seconds',
      help: 'Duration of webhook HTTP attempts by outcome',
      labelNames: ['outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.deferred = new Counter({
      name: 'kasa_webhook_deferred_total',
      help:
        'Jobs put back without using an attempt, by reason: busy (the site had its share of in-flight deliveries), ' +
        'failing (the site is paused after unanswered attempts), lane (the slots for failing sites were all taken)',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.probes = new Counter({
      name: 'kasa_webhook_probes_total',
      help: 'Signed ping probes of sites with DEAD events and no recent successful delivery, by outcome: answered (2xx) or failed',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.autoReplayRequests = new Counter({
      name: 'kasa_webhook_auto_replay_requests_total',
      help: "Requests to replay a recovered site's DEAD events, by what showed it answers again: delivery or probe",
      labelNames: ['trigger'],
      registers: [registry],
    });
    if (sites) {
      new Gauge({
        name: 'kasa_webhook_failing_sites',
        help: 'Sites whose last delivery attempt failed, as this worker process knows them (they get one slot at a time)',
        registers: [registry],
        collect() {
          this.set(sites.failingSites());
        },
      });
      new Gauge({
        name: 'kasa_webhook_failing_lane_in_flight',
        help: 'Attempts in flight to failing or unanswering sites in this worker process (bounded by its failing lane)',
        registers: [registry],
        collect() {
          this.set(sites.failingLaneInFlight());
        },
      });
    }
    new Gauge({
      name: 'kasa_webhook_queue_waiting',
      help: 'Webhook jobs waiting in the queue, including retries waiting out their backoff (scale workers on this)',
      registers: [registry],
      async collect() {
        this.set(await backlog());
      },
    });
  }
}
