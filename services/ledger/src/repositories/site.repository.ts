import type { PrismaClient, Site } from '@kasa/db';
import { keysetWhere, NEWEST_FIRST, type ListWindow } from './keyset.js';

export interface NewSite {
  slug: string;
  name: string;
  webhookUrl?: string;
  rateLimitPerMinute?: number;
  depositTtlSeconds?: number;
  minAmount?: bigint;
  maxAmount?: bigint;
}

export class SiteRepository {
  // Site settings change rarely and are read on every create; a short cache spares a query per request.
  private readonly cache = new Map<string, { site: Site; until: number }>();

  constructor(
    private readonly db: PrismaClient,
    private readonly cacheMs = 5_000,
  ) {}

  create(input: NewSite): Promise<Site> {
    return this.db.site.create({ data: input });
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
    return this.db.site.findMany({ where: keysetWhere(window), orderBy: NEWEST_FIRST, take: window.limit });
  }
}
