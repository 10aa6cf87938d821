import type { ApiKey, Prisma, PrismaClient } from '@kasa/db';

export interface KeyOwner {
  apiKeyId: string;
  siteId: string;
  siteSlug: string;
  rateLimitPerMinute: number;
  /** False for a key of a site's sandbox. */
  livemode: boolean;
  revoked: boolean;
}

export class ApiKeyRepository {
  constructor(private readonly db: PrismaClient) {}

  async findOwnerByHash(keyHash: string): Promise<KeyOwner | null> {
    const key = await this.db.apiKey.findUnique({
      where: { keyHash },
      include: { site: { select: { slug: true, rateLimitPerMinute: true, livemode: true } } },
    });
    if (!key) return null;
    return {
      apiKeyId: key.id,
      siteId: key.siteId,
      siteSlug: key.site.slug,
      rateLimitPerMinute: key.site.rateLimitPerMinute,
      livemode: key.site.livemode,
      revoked: key.revokedAt !== null,
    };
  }

  /** Inside the caller's transaction, so the audit entry commits with the key. */
  create(tx: Prisma.TransactionClient, data: { siteId: string; keyHash: string; keyPrefix: string }): Promise<ApiKey> {
    return tx.apiKey.create({ data });
  }

  /** Marks the key revoked; false when it already was (a repeated revoke changes nothing). */
  async revoke(tx: Prisma.TransactionClient, id: string, at: Date): Promise<boolean> {
    const result = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }

  findById(id: string) {
    return this.db.apiKey.findUnique({ where: { id } });
  }

  /** The site the key belongs to, for the operator-scope guard; null when there is no such key. */
  async siteOfRecord(id: string): Promise<string | null> {
    return (await this.db.apiKey.findUnique({ where: { id }, select: { siteId: true } }))?.siteId ?? null;
  }

  /** A site's keys, newest first, as an operator may see them (prefix only). */
  listForSite(siteId: string) {
    return this.db.apiKey.findMany({ where: { siteId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }
}
