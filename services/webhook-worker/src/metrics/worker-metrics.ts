import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Delivery metrics of the worker, registered on the service's registry. */
export class WorkerMetrics {
  readonly attempts: Counter<'outcome'>;
  readonly duration: Histogram<'outcome'>;
  readonly deferred: Counter;

  constructor(registry: Registry, backlog: () => Promise<number>) {
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
      help: 'Jobs put back for a moment because their site already had its share of in-flight deliveries',
      registers: [registry],
    });
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
