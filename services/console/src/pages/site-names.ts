import type { SiteBalance } from '@kasa/contracts';
import type { OpsClient } from '@kasa/ops-client';
import { t } from '../i18n/index.js';
import { shortId } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';

/** Site id -> slug and name. `/ops/v1/balances` is the ops API's only list of every site, so it doubles as the directory. */
export type SiteDirectory = Map<string, SiteBalance>;

export async function siteDirectory(ops: OpsClient): Promise<SiteDirectory> {
  const balances = await ops.call('listBalances');
  return new Map(balances.data.map((site) => [site.siteId, site]));
}

/** An ops call's answer, with the directory to name the sites of what it answers (both asked at once). */
export function withSites<T>(ops: OpsClient, answer: Promise<T>): Promise<[T, SiteDirectory]> {
  return Promise.all([answer, siteDirectory(ops)]);
}

/** A site's slug linking to its page, or the short id when the directory does not know it; a sandbox's is marked TEST. */
export function siteLink(sites: SiteDirectory, siteId: string | null | undefined): SafeHtml {
  if (!siteId) return html`<span class="muted">—</span>`;
  const site = sites.get(siteId);
  return html`<a href="/sites/${encodeURIComponent(siteId)}" title="${site ? `${site.name} (${siteId})` : siteId}"
      >${site ? site.slug : shortId(siteId)}</a
    >${site?.livemode === false ? html` <span class="badge info" title="${t('sites.badge.recordTitle')}">${t('sites.badge.test')}</span>` : ''}`;
}
