/**
 * `@kasa/net-guard`: the private-address guard for webhook URLs (SSRF protection), used by the ledger when a
 * URL is configured and by the webhook worker at connect time.
 *
 * @packageDocumentation
 */
export { AllowList, embeddedIpv4, isBlockedAddress, normalizeHostname } from './address-policy.js';
export {
  WebhookUrlError,
  WebhookUrlGuard,
  type Resolver,
  type WebhookUrlGuardOptions,
  type WebhookUrlProblem,
} from './webhook-url-guard.js';
