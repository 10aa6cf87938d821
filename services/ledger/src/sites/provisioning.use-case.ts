import { randomUUID } from 'node:crypto';
import { publishToSubscribers, type RedisClient } from '@kasa/redis';
import type { WebhookUrlGuard } from '@kasa/net-guard';
import type { SecretBox } from '@kasa/secret-box';
import { generateWebhookSecret } from '@kasa/webhook-signing';
import type { PrismaClient, Site } from '@kasa/db';
import type { KasaConfig } from '@kasa/config';
import { AUTH_CACHE_SECONDS, REVOKED, authCacheKey, authChangesChannel } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { apiKeyPrefix, generateApiKey, testSlugOf, type KeyMode } from './api-key.js';
import { sha256Hex } from '../shared/secrets.js';
import { foundOr404 } from '../shared/http-guards.js';
import type { ApiKeyRepository } from './api-key.repository.js';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import type { NewSite, SiteRepository } from './site.repository.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import { assertWebhookUrlAllowed } from './webhook-config.use-case.js';
import { siteView } from './site.views.js';
import { checkReturnUrl } from './return-url.js';

export interface ProvisioningDeps {
  db: PrismaClient;
  sites: SiteRepository;
  apiKeys: ApiKeyRepository;
  redis: RedisClient;
  redisPrefix: string;
  webhookUrlGuard: WebhookUrlGuard;
  webhookSecrets: SecretBox;
  /**
   * DEPOSIT_INTENT_TTL_SECONDS: the expiry of a new site's intents unless the site says otherwise; NODE_ENV:
   * production refuses a plain-http returnUrl even to localhost.
   */
  config: Pick<KasaConfig, 'depositIntentTtlSeconds' | 'nodeEnv'>;
}

/**
 * Creates a site. A webhook URL given here passes the very check the partner's own webhook-config call runs
 * ({@link assertWebhookUrlAllowed}), and gets a signing secret, returned once in `webhookSecret` (stored sealed).
 */
export async function createSite(deps: ProvisioningDeps, actor: Actor, input: NewSite) {
  if (input.minAmount !== undefined && input.maxAmount !== undefined && input.minAmount > input.maxAmount) {
    throw AppError.validation([{ field: 'minAmount', message: 'must not be greater than maxAmount' }]);
  }
  checkReturnUrl(input.returnUrl, deps.config.nodeEnv === 'production');
  if (input.webhookUrl !== undefined) await assertWebhookUrlAllowed(deps.webhookUrlGuard, input.webhookUrl);
  const id = randomUUID();
  const webhookSecret = input.webhookUrl ? generateWebhookSecret() : null;
  try {
    const site = await deps.db.$transaction(async (tx) => {
      const created = await deps.sites.create(tx, {
        depositTtlSeconds: deps.config.depositIntentTtlSeconds,
        ...input,
        id,
        ...(webhookSecret ? { webhookSecretEnc: deps.webhookSecrets.seal(webhookSecret, id), webhookRotatedAt: new Date() } : {}),
      });
      await writeAudit(tx, {
        actor,
        action: 'SITE.CREATED',
        entityType: 'site',
        entityId: created.id,
        siteId: created.id,
        metadata: { slug: created.slug, webhookUrl: created.webhookUrl },
      });
      return created;
    });
    return { ...siteView(site), webhookSecret };
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw AppError.validation([{ field: 'slug', message: 'is already taken' }], 'A site with this slug exists.');
    }
    throw error;
  }
}

/** The site a path names; a malformed or unknown id is 404 `not_found`. */
export async function siteOr404(sites: SiteRepository, siteId: string): Promise<Site> {
  return foundOr404(siteId, (id) => sites.findById(id), 'No site with this id.');
}

/**
 * Issues a key; the raw key is returned here once and never stored. A `test` key belongs to the site's sandbox, its
 * test twin (docs/sandbox.md), created with the first test key with the live site's settings and no webhook URL
 * (the partner sets the sandbox's own with a test key). Keys are issued for live sites only.
 */
export async function issueApiKey(deps: ProvisioningDeps, actor: Actor, siteId: string, mode: KeyMode = 'live') {
  const live = await siteOr404(deps.sites, siteId);
  if (!live.livemode) {
    throw AppError.validation(
      [{ field: 'siteId', message: 'names a sandbox: issue test keys on its live site with {"mode":"test"}' }],
      'Keys are issued on the live site; a test key goes to its sandbox.',
    );
  }
  const apiKey = generateApiKey(live.slug, mode);
  const created = await deps.db.$transaction(async (tx) => {
    let owner = live;
    if (mode === 'test') {
      const twin = await deps.sites.ensureTestTwin(tx, live, testSlugOf(live.slug));
      owner = twin.site;
      if (twin.created) {
        await writeAudit(tx, {
          actor,
          action: 'SITE.SANDBOX_CREATED',
          entityType: 'site',
          entityId: owner.id,
          siteId: owner.id,
          metadata: { liveSiteId: live.id, slug: owner.slug },
        });
      }
    }
    const key = await deps.apiKeys.create(tx, { siteId: owner.id, keyHash: sha256Hex(apiKey), keyPrefix: apiKeyPrefix(apiKey) });
    await writeAudit(tx, {
      actor,
      action: 'API_KEY.ISSUED',
      entityType: 'api_key',
      entityId: key.id,
      siteId: owner.id,
      metadata: { mode },
    });
    return key;
  });
  return {
    apiKeyId: created.id,
    siteId: created.siteId,
    mode,
    apiKey,
    keyPrefix: created.keyPrefix,
    createdAt: created.createdAt.toISOString(),
  };
}

/**
 * Revokes a key: the cache is marked first, so the very next request with it is refused, and every gateway is told
 * to drop the key from its own memory (without Redis neither can be done, and the revocation answers 503).
 */
export async function revokeApiKey(deps: ProvisioningDeps, actor: Actor, apiKeyId: string) {
  const key = await foundOr404(apiKeyId, (id) => deps.apiKeys.findById(id), 'No API key with this id.');
  await deps.redis.set(authCacheKey(deps.redisPrefix, key.keyHash), REVOKED, 'EX', AUTH_CACHE_SECONDS);
  await publishToSubscribers(deps.redis, authChangesChannel(deps.redisPrefix), key.keyHash);
  const revokedAt = new Date();
  await deps.db.$transaction(async (tx) => {
    if (await deps.apiKeys.revoke(tx, apiKeyId, revokedAt)) {
      await writeAudit(tx, { actor, action: 'API_KEY.REVOKED', entityType: 'api_key', entityId: apiKeyId, siteId: key.siteId });
    }
  });
  const current = await deps.apiKeys.findById(apiKeyId);
  return { apiKeyId, revokedAt: (current?.revokedAt ?? revokedAt).toISOString() };
}
