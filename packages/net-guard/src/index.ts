/**
 * `@kasa/net-guard`: the guard for webhook URLs (SSRF protection): characters, scheme, credentials, port and
 * private addresses. The ledger runs {@link checkWebhookUrl} wherever a URL is stored; the webhook worker checks
 * the URL again before each delivery and every address it connects to.
 *
 * @packageDocumentation
 */
export { AllowList, embeddedIpv4, isBlockedAddress, normalizeHostname } from './address-policy.js';
export {
  checkWebhookUrl,
  DEFAULT_WEBHOOK_PORTS,
  WebhookUrlError,
  WebhookUrlGuard,
  type PortRange,
  type Resolver,
  type WebhookUrlGuardOptions,
  type WebhookUrlProblem,
  type WebhookUrlVerdict,
} from './webhook-url-guard.js';
