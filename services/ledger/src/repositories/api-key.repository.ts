import type { PrismaClient } from '@kasa/db';

export interface KeyOwner {
  apiKeyId: string;
  siteId: string;
  siteSlug: string;
  rateLimitPerMinute: number;
  revoked: boolean;
}

export class ApiKeyRepository {
  constructor(private readonly db: PrismaClient) {}

  async findOwnerByHash(keyHash: string): Promise<KeyOwner | null> {
    const key = await this.db.apiKey.findUnique({
      where: { keyHash },
      include: { site: { select: { slug: true, rateLimitPerMinute: true } } },
    });
    if (!key) return null;
    return {
      apiKeyId: key.id,
      siteId: key.siteId,
      siteSlug: key.site.slug,
      rateLimitPerMinute: key.site.rateLimitPerMinute,
      revoked: key.revokedAt !== null,
    };
  }

  findById(id: string) {
    return this.db.apiKey.findUnique({ where: { id } });
  }

  /** A site's keys, newest first, as an operator may see them (prefix only). */
  listForSite(siteId: string) {
    return this.db.apiKey.findMany({ where: { siteId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }
}
