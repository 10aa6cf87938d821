import type { Prisma, PrismaClient, Site } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';
import { siteRowScopeWhere, type SiteScope } from '../shared/site-scope.js';

export interface NewSite {
  slug: string;
  name: string;
  webhookUrl?: string;
  rateLimitPerMinute?: number;
  depositTtlSeconds?: number;
  minAmount?: bigint;
  maxAmount?: bigint;
  returnUrl?: string;
}

export class SiteRepository {
  // Site settings change rarely and are read by reviews, straight-through approvals and the sandbox; a short cache
  // spares them a query each. A partner create reads none of it: its insert reads the site's row (limits, TTL).
  private readonly cache = new Map<string, { site: Site; until: number }>();

  constructor(
    private readonly db: PrismaClient,
    private readonly cacheMs = 5_000,
  ) {}

  /** Inside the caller's transaction, so the audit entry commits with the site. */
  create(
    tx: Prisma.TransactionClient,
    data: NewSite & { id: string; depositTtlSeconds: number; webhookSecretEnc?: string; webhookRotatedAt?: Date },
  ): Promise<Site> {
    this.cache.delete(data.id);
    return tx.site.create({ data });
  }

  /** Locks the site's row until the transaction ends and returns its sealed signing secret (null when none). */
  async lockWebhookSecret(tx: Prisma.TransactionClient, siteId: string): Promise<{ webhookSecretEnc: string | null } | null> {
    const [site] = await tx.$queryRaw<Array<{ webhook_secret_enc: string | null }>>`
      SELECT webhook_secret_enc FROM sites WHERE id = ${siteId}::uuid FOR UPDATE`;
    return site ? { webhookSecretEnc: site.webhook_secret_enc } : null;
  }

  /** Locks the site's row until the transaction ends and reads it; null when there is no such site. */
  async lock(tx: Prisma.TransactionClient, siteId: string): Promise<Site | null> {
    return (await lockRow(tx, 'sites', siteId)) ? tx.site.findUnique({ where: { id: siteId } }) : null;
  }

  /** Writes changed settings of a locked site (the caller drops the cached copy with {@link forget}). */
  update(tx: Prisma.TransactionClient, siteId: string, data: Prisma.SiteUpdateInput): Promise<Site> {
    return tx.site.update({ where: { id: siteId }, data });
  }

  /** Stores a new webhook URL and, when given, the new sealed secret with the previous one and its expiry. */
  async updateWebhook(
    tx: Prisma.TransactionClient,
    siteId: string,
    change: {
      webhookUrl: string;
      rotatedAt: Date;
      secret?: { sealed: string; previousSealed: string | null; previousExpiresAt: Date | null };
      /** The opt-in event types chosen; absent: unchanged. */
      optInEventTypes?: string[];
    },
  ): Promise<{ webhookEventTypes: string[] }> {
    const site = await tx.site.update({
      where: { id: siteId },
      select: { webhookEventTypes: true },
      data: {
        webhookUrl: change.webhookUrl,
        webhookRotatedAt: change.rotatedAt,
        ...(change.optInEventTypes ? { webhookEventTypes: change.optInEventTypes } : {}),
        ...(change.secret
          ? {
              webhookSecretEnc: change.secret.sealed,
              previousWebhookSecretEnc: change.secret.previousSealed,
              previousSecretExpiresAt: change.secret.previousExpiresAt,
            }
          : {}),
      },
    });
    this.cache.delete(siteId);
    return site;
  }

  /** Drops this process's cached copy after a change (other ledgers see it within `cacheMs`). */
  forget(siteId: string): void {
    this.cache.delete(siteId);
  }

  /** Where and with which sealed secrets the site's webhooks go, read fresh: what a test webhook needs. */
  webhookTarget(siteId: string): Promise<{
    webhookUrl: string | null;
    webhookSecretEnc: string | null;
    previousWebhookSecretEnc: string | null;
    previousSecretExpiresAt: Date | null;
    livemode: boolean;
  } | null> {
    return this.db.site.findUnique({
      where: { id: siteId },
      select: { webhookUrl: true, webhookSecretEnc: true, previousWebhookSecretEnc: true, previousSecretExpiresAt: true, livemode: true },
    });
  }

  /**
   * The site's webhook URL, last rotation and opt-in event types, read fresh (not from the cache: a partner reads
   * back what it just set).
   */
  webhookConfig(siteId: string): Promise<{ webhookUrl: string | null; webhookRotatedAt: Date | null; webhookEventTypes: string[] } | null> {
    return this.db.site.findUnique({
      where: { id: siteId },
      select: { webhookUrl: true, webhookRotatedAt: true, webhookEventTypes: true },
    });
  }

  findBySlug(slug: string): Promise<Site | null> {
    return this.db.site.findUnique({ where: { slug } });
  }

  /**
   * The site, from the cache while it is fresh. A caller inside a transaction passes its `tx`: a transaction that asked
   * the pool for a second connection while holding one (and its row locks) could wait for a pool full of transactions
   * doing the same, until the pool's connection timeout (the failover drill's approvals after a restart).
   */
  async findById(id: string, tx?: Prisma.TransactionClient): Promise<Site | null> {
    const cached = this.cache.get(id);
    if (cached && cached.until > Date.now()) return cached.site;
    const site = await (tx ?? this.db).site.findUnique({ where: { id } });
    if (site) this.cache.set(id, { site, until: Date.now() + this.cacheMs });
    return site;
  }

  /** The site itself when it exists (the site of a site, for the operator-scope guard); null when there is none. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.site.findUnique({ where: { id }, select: { id: true } }))?.id ?? null;
  }

  /** A page of sites; a scoped operator's only its own (and their test twins). */
  list(window: ListWindow, scope: SiteScope): Promise<Site[]> {
    return this.db.site.findMany(keysetPage(siteRowScopeWhere(scope), window));
  }

  /** The test twins (sandboxes) of these live sites, by the live site's id. */
  async testTwinsOf(liveSiteIds: string[]): Promise<Map<string, string>> {
    if (liveSiteIds.length === 0) return new Map();
    const twins = await this.db.site.findMany({ where: { liveSiteId: { in: liveSiteIds } }, select: { id: true, liveSiteId: true } });
    return new Map(twins.map((twin) => [twin.liveSiteId as string, twin.id]));
  }

  /**
   * Creates the live site's test twin unless it has one, inside the caller's transaction, and returns it with
   * whether this call created it. Two first test keys at once: the unique live_site_id lets one insert, the other
   * waits on it and then finds it.
   */
  async ensureTestTwin(tx: Prisma.TransactionClient, live: Site, twinSlug: string): Promise<{ site: Site; created: boolean }> {
    const inserted = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO sites (id, slug, name, rate_limit_per_minute, deposit_ttl_seconds, min_amount, max_amount, return_url,
        auto_approve_enabled, auto_approve_max_amount, auto_approve_require_sender_match, livemode, live_site_id, created_at, updated_at)
      VALUES (gen_random_uuid(), ${twinSlug}, ${live.name}, ${live.rateLimitPerMinute}, ${live.depositTtlSeconds}, ${live.minAmount},
        ${live.maxAmount}, ${live.returnUrl}, ${live.autoApproveEnabled}, ${live.autoApproveMaxAmount},
        ${live.autoApproveRequireSenderMatch}, false, ${live.id}::uuid, now(), now())
      ON CONFLICT (live_site_id) DO NOTHING
      RETURNING id::text`;
    const site = await tx.site.findUniqueOrThrow({ where: { liveSiteId: live.id } });
    return { site, created: inserted.length === 1 };
  }
}
