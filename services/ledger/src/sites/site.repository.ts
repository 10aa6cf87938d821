import type { Prisma, PrismaClient, Site } from '@kasa/db';
import { keysetPage, type ListWindow } from '../shared/keyset.js';
import { lockRow } from '../shared/row-lock.repository.js';

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
  // Site settings change rarely and are read on every create; a short cache spares a query per request.
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
    },
  ): Promise<void> {
    await tx.site.update({
      where: { id: siteId },
      data: {
        webhookUrl: change.webhookUrl,
        webhookRotatedAt: change.rotatedAt,
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
  }

  /** Drops this process's cached copy after a change (other ledgers see it within `cacheMs`). */
  forget(siteId: string): void {
    this.cache.delete(siteId);
  }

  findBySlug(slug: string): Promise<Site | null> {
    return this.db.site.findUnique({ where: { slug } });
  }

  async findById(id: string): Promise<Site | null> {
    const cached = this.cache.get(id);
    if (cached && cached.until > Date.now()) return cached.site;
    const site = await this.db.site.findUnique({ where: { id } });
    if (site) this.cache.set(id, { site, until: Date.now() + this.cacheMs });
    return site;
  }

  list(window: ListWindow): Promise<Site[]> {
    return this.db.site.findMany(keysetPage({}, window));
  }
}
