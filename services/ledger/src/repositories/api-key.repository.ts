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

  create(siteId: string, keyHash: string, keyPrefix: string) {
    return this.db.apiKey.create({ data: { siteId, keyHash, keyPrefix } });
  }

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

  /** Returns false when the key was already revoked (or does not exist). */
  async revoke(id: string, at: Date): Promise<boolean> {
    const result = await this.db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }
}
