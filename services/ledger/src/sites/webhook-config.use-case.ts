import type { SiteRepository } from './site.repository.js';
import type { EventType } from '@kasa/contracts';
import type { PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import { checkWebhookUrl, type WebhookUrlGuard } from '@kasa/net-guard';
import type { SecretBox } from '@kasa/secret-box';
import { generateWebhookSecret } from '@kasa/webhook-signing';
import { optInChoiceOf, subscribedEventTypes } from '../outbox/event-subscriptions.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';

export interface WebhookConfigDeps {
  db: PrismaClient;
  clock: Clock;
  sites: SiteRepository;
  webhookUrlGuard: WebhookUrlGuard;
  webhookSecrets: SecretBox;
  config: { webhookPreviousSecretTtlSeconds: number };
}

export interface WebhookConfigChange {
  siteId: string;
  apiKeyId: string;
  webhookUrl: string;
  rotateSecret: boolean;
  /** Every event type the site is to receive (the five always sent among them); absent: unchanged. */
  eventTypes?: readonly EventType[];
}

/** The answer of endpoint 7 (docs/api.md, Endpoints); `webhookSecret` is shown here once and never again. */
export interface WebhookConfigResult {
  webhookUrl: string;
  webhookSecret: string | null;
  rotatedAt: string;
  /** Every event type the site receives after the change. */
  eventTypes: EventType[];
}

export const WEBHOOK_CONFIG_ROTATED = 'SITE.WEBHOOK_CONFIG_ROTATED';

/** What `GET /site/webhook-config` answers: never the secret (a lost one is recovered by rotating). */
export interface WebhookConfigView {
  webhookUrl: string | null;
  rotatedAt: string | null;
  eventTypes: EventType[];
}

export async function readWebhookConfig(deps: { sites: SiteRepository }, siteId: string): Promise<WebhookConfigView> {
  const site = await deps.sites.webhookConfig(siteId);
  if (!site) throw new AppError('not_found', 'No site with this id.');
  return {
    webhookUrl: site.webhookUrl,
    rotatedAt: site.webhookRotatedAt?.toISOString() ?? null,
    eventTypes: subscribedEventTypes(site.webhookEventTypes),
  };
}

/**
 * Refuses a webhook URL the guard does not allow, with the same `400 validation_failed` on `webhookUrl`
 * wherever a URL is stored: here and in ops site creation. Both call this, so their verdicts cannot drift.
 */
export async function assertWebhookUrlAllowed(guard: WebhookUrlGuard, webhookUrl: string): Promise<void> {
  const verdict = await checkWebhookUrl(webhookUrl, guard);
  if (!verdict.ok) throw AppError.validation([{ field: 'webhookUrl', message: verdict.message }], 'The webhook URL is not allowed.');
}

/**
 * Changes a site's webhook URL and, by default, rotates its signing secret. The URL passes the webhook URL
 * guard first. The new secret is stored sealed; the old one moves to `previous` and keeps signing (a second
 * `v1=`) until the overlap window ends, so retries already in flight verify on either side of the change.
 */
export async function updateWebhookConfig(deps: WebhookConfigDeps, change: WebhookConfigChange): Promise<WebhookConfigResult> {
  await assertWebhookUrlAllowed(deps.webhookUrlGuard, change.webhookUrl);
  const optInEventTypes = change.eventTypes ? optInChoiceOf(change.eventTypes) : undefined;
  // The previous secret's end of overlap is a deadline by the ledger's clock, like an intent's expiry.
  const rotatedAt = deps.clock.now();
  const secret = change.rotateSecret ? generateWebhookSecret() : null;
  const stored = await deps.db.$transaction(async (tx) => {
    // Serialises rotations of one site, so two at once cannot both demote the same secret to "previous".
    const site = await deps.sites.lockWebhookSecret(tx, change.siteId);
    if (!site) throw new AppError('not_found', 'No site with this id.');
    if (!secret && !site.webhookSecretEnc) {
      throw AppError.validation(
        [{ field: 'rotateSecret', message: 'must be true: this site has no signing secret yet' }],
        'The site has no signing secret to keep.',
      );
    }
    const current = site.webhookSecretEnc;
    const updated = await deps.sites.updateWebhook(tx, change.siteId, {
      webhookUrl: change.webhookUrl,
      rotatedAt,
      ...(optInEventTypes ? { optInEventTypes } : {}),
      ...(secret
        ? {
            secret: {
              sealed: deps.webhookSecrets.seal(secret, change.siteId),
              previousSealed: current,
              previousExpiresAt: current ? new Date(rotatedAt.getTime() + deps.config.webhookPreviousSecretTtlSeconds * 1000) : null,
            },
          }
        : {}),
    });
    await writeAudit(tx, {
      actor: { type: 'API_KEY', id: change.apiKeyId },
      action: WEBHOOK_CONFIG_ROTATED,
      entityType: 'site',
      entityId: change.siteId,
      siteId: change.siteId,
      metadata: {
        rotatedSecret: secret !== null,
        webhookUrl: change.webhookUrl,
        ...(optInEventTypes ? { eventTypes: subscribedEventTypes(optInEventTypes) } : {}),
      },
    });
    return updated;
  });
  return {
    webhookUrl: change.webhookUrl,
    webhookSecret: secret,
    rotatedAt: rotatedAt.toISOString(),
    eventTypes: subscribedEventTypes(stored.webhookEventTypes),
  };
}
