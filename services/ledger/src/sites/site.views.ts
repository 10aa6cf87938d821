import type { Site } from '@kasa/db';

/** A site as the ops API shows it (never its webhook secret); `testSiteId`: its sandbox, when it has one. */
export function siteView(site: Site, testSiteId: string | null = null) {
  return {
    siteId: site.id,
    slug: site.slug,
    livemode: site.livemode,
    liveSiteId: site.liveSiteId,
    testSiteId,
    name: site.name,
    webhookUrl: site.webhookUrl,
    rateLimitPerMinute: site.rateLimitPerMinute,
    depositTtlSeconds: site.depositTtlSeconds,
    minAmount: site.minAmount.toString(),
    maxAmount: site.maxAmount.toString(),
    returnUrl: site.returnUrl,
    dualApprovalAbove: site.dualApprovalAbove?.toString() ?? null,
    createdAt: site.createdAt.toISOString(),
    autoApprove: {
      enabled: site.autoApproveEnabled,
      maxAmount: site.autoApproveMaxAmount.toString(),
      requireSenderMatch: site.autoApproveRequireSenderMatch,
    },
    screenDepositSenders: site.screenDepositSenders,
  };
}
