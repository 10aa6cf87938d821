import type { SiteBalance } from '@kasa/contracts';
import type { OpsClient, Query } from '@kasa/ops-client';
import { shortId } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';

/** Site id -> slug and name. `/ops/v1/balances` is the ops API's only list of every site, so it doubles as the directory. */
export type SiteDirectory = Map<string, SiteBalance>;

export async function siteDirectory(ops: OpsClient): Promise<SiteDirectory> {
  const balances = await ops.get<{ data: SiteBalance[] }>('/balances');
  return new Map(balances.data.map((site) => [site.siteId, site]));
}

/** `GET path` on the ops API, with the directory to name the sites of what it answers. */
export function getWithSites<T>(ops: OpsClient, path: string, query?: Query): Promise<[T, SiteDirectory]> {
  return Promise.all([ops.get<T>(path, query), siteDirectory(ops)]);
}

/** A site's slug linking to its page, or the short id when the directory does not know it. */
export function siteLink(sites: SiteDirectory, siteId: string | null | undefined): SafeHtml {
  if (!siteId) return html`<span class="muted">—</span>`;
  const site = sites.get(siteId);
  return html`<a href="/sites/${encodeURIComponent(siteId)}" title="${site ? `${site.name} (${siteId})` : siteId}"
    >${site ? site.slug : shortId(siteId)}</a
  >`;
}
