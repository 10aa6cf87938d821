/**
 * `@kasa/webhook-sender`: how Kasa POSTs a signed webhook, shared by the webhook worker (every delivery) and the
 * ledger (test webhooks), so a test webhook is sent exactly like a real one: the same body, signature headers,
 * URL guard (private addresses, `WEBHOOK_ALLOWED_HOSTS`, `WEBHOOK_ALLOW_HTTP`, ports), TLS trust and limits.
 *
 * @packageDocumentation
 */
export { MAX_RESPONSE_BYTES, WebhookSender, type SendResult, type WebhookSenderOptions } from './webhook-sender.js';
export { signedHeaders, trustedAuthorities, webhookBody } from './signed-request.js';
