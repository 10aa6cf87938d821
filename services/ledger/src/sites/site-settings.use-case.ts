import { AUTH_CACHE_SECONDS, authCacheKey, authChangesChannel, REVOKED, type Principal } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { generateWebhookSecret } from '@kasa/webhook-signing';
import { publishToSubscribers } from '@kasa/redis';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import { checkReturnUrl } from './return-url.js';
import { siteView } from './site.views.js';
import type { ProvisioningDeps } from './provisioning.use-case.js';
import type { Site } from '@kasa/db';
import { assertWebhookUrlAllowed } from './webhook-config.use-case.js';

/** What an admin may change on a site (the slug, part of every API key, never changes). */
export interface SiteSettingsChange {
  name?: string;
  webhookUrl?: string;
  rateLimitPerMinute?: number;
  depositTtlSeconds?: number;
  minAmount?: bigint;
  maxAmount?: bigint;
  /** null removes the site's way back. */
  returnUrl?: string | null;
  /** Straight-through approval (docs/operations.md). */
  autoApproveEnabled?: boolean;
  autoApproveMaxAmount?: bigint;
  autoApproveRequireSenderMatch?: boolean;
  /** Sanctions screening of the senders of the money credited to its deposits (docs/compliance.md). */
  screenDepositSenders?: boolean;
  /** Four-eyes threshold (kuruş); null: the service's DUAL_APPROVAL_ABOVE_KURUS. */
  dualApprovalAbove?: bigint | null;
}

/** What changing settings needs: what creating a site does (the same URL checks, the same secret box). */
export type SiteSettingsDeps = ProvisioningDeps;

type Setting = keyof SiteSettingsChange;
const SETTINGS: Setting[] = [
  'name',
  'webhookUrl',
  'rateLimitPerMinute',
  'depositTtlSeconds',
  'minAmount',
  'maxAmount',
  'returnUrl',
  'autoApproveEnabled',
  'autoApproveMaxAmount',
  'autoApproveRequireSenderMatch',
  'screenDepositSenders',
  'dualApprovalAbove',
];

/** A setting as the audit log keeps it: amounts as kuruş strings, so before and after read alike. */
const shown = (value: unknown) => (typeof value === 'bigint' ? value.toString() : (value ?? null));

// Replaces an API key's cached principal unless the key was revoked meanwhile (a revoke's marker wins).
const REFRESH_UNLESS_REVOKED = `
if redis.call('GET', KEYS[1]) == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

/**
 * Changes a site's settings for an admin, in one transaction with its audit entry (`SITE.SETTINGS_CHANGED`,
 * each changed setting before and after). The amount bounds are checked against each other as they will
 * be; a webhook URL passes the partner's own check and, on a site that had none, gets a signing secret
 * returned this once. A new rate limit is written into the gateway's API-key cache at once, so the gateway
 * applies it from its next request; other settings reach every ledger within its 5 s site cache.
 */
export async function updateSiteSettings(deps: SiteSettingsDeps, actor: Actor, siteId: string, change: SiteSettingsChange) {
  if (change.returnUrl !== undefined && change.returnUrl !== null) checkReturnUrl(change.returnUrl, deps.config.nodeEnv === 'production');
  if (change.webhookUrl !== undefined) await assertWebhookUrlAllowed(deps.webhookUrlGuard, change.webhookUrl);
  let webhookSecret: string | null = null;
  const updated = await deps.db.$transaction(async (tx) => {
    const before = await deps.sites.lock(tx, siteId);
    if (!before) throw new AppError('not_found', 'No site with this id.');
    const minAmount = change.minAmount ?? before.minAmount;
    const maxAmount = change.maxAmount ?? before.maxAmount;
    if (minAmount > maxAmount) {
      throw AppError.validation(
        [{ field: change.minAmount !== undefined ? 'minAmount' : 'maxAmount', message: 'must keep minAmount at most maxAmount' }],
        'The settings are not valid; nothing was changed.',
      );
    }
    const changed = SETTINGS.filter((key) => change[key] !== undefined && shown(change[key]) !== shown(before[key]));
    if (changed.length === 0) return before;
    if (changed.includes('webhookUrl') && !before.webhookSecretEnc) webhookSecret = generateWebhookSecret();
    const site = await deps.sites.update(tx, siteId, {
      ...Object.fromEntries(changed.map((key) => [key, change[key]])),
      ...(webhookSecret ? { webhookSecretEnc: deps.webhookSecrets.seal(webhookSecret, siteId), webhookRotatedAt: new Date() } : {}),
    });
    await writeAudit(tx, {
      actor,
      action: 'SITE.SETTINGS_CHANGED',
      entityType: 'site',
      entityId: siteId,
      siteId,
      metadata: {
        before: Object.fromEntries(changed.map((key) => [key, shown(before[key])])),
        after: Object.fromEntries(changed.map((key) => [key, shown(site[key])])),
        ...(webhookSecret ? { webhookSecretIssued: true } : {}),
      },
    });
    return site;
  });
  deps.sites.forget(siteId);
  if (change.rateLimitPerMinute !== undefined) await refreshAuthCache(deps, updated);
  return { ...siteView(updated), webhookSecret };
}

/**
 * Writes the site's active keys' principals with the new rate limit into the shared auth cache. The change
 * is already committed, so a Redis that cannot take the write must not turn it into an error (the admin would
 * retry a change that happened, and lose a webhook secret issued with it): a cached principal then keeps
 * the old limit until it expires (AUTH_CACHE_SECONDS; a gateway's own memory of it, LOCAL_KEY_TTL_MS there), and a
 * gateway without Redis asks the ledger anyway.
 */
async function refreshAuthCache(deps: SiteSettingsDeps, site: Site): Promise<void> {
  const keys = await deps.apiKeys.listForSite(site.id);
  for (const key of keys) {
    if (key.revokedAt) continue;
    const principal: Principal = { apiKeyId: key.id, siteId: site.id, siteSlug: site.slug, rateLimitPerMinute: site.rateLimitPerMinute };
    const written = await deps.redis
      .eval(
        REFRESH_UNLESS_REVOKED,
        1,
        authCacheKey(deps.redisPrefix, key.keyHash),
        JSON.stringify(principal),
        String(AUTH_CACHE_SECONDS),
        REVOKED,
      )
      .then(
        // Every gateway drops the key from its own memory, so the new limit holds from its next request too.
        () => publishToSubscribers(deps.redis, authChangesChannel(deps.redisPrefix), key.keyHash),
      )
      .then(
        () => true,
        () => false,
      );
    if (!written) return;
  }
}
