/** The webhook worker as a library: tests and the local runner start it in-process. */
export { startWorker, type WebhookWorkerService } from './worker.js';
export { createApp } from './app.js';
export { createWorkerDeps, type WorkerDeps, type WorkerOverrides } from './worker-deps.js';
export { signingSecrets } from './deliveries/deliver-event.job.js';
export { webhookBody } from '@kasa/webhook-sender';
