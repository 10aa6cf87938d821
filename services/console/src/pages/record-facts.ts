import type { OpsIntent } from '@kasa/contracts';
import { statusBadge } from '../views/components.js';
import { t } from '../i18n/index.js';
import { html, type HtmlValue } from '../views/html.js';
import { siteLink, type SiteDirectory } from './site-names.js';

/** What a deposit and a withdrawal both have: a partner's end user on a site, a reference and a status. */
type PartnerRecord = Pick<OpsIntent, 'referenceNo' | 'siteId' | 'externalUserId' | 'externalUserLabel'> & { status: string };

/** The facts a deposit's or a withdrawal's page opens with: status, reference, id, site and end user. */
export function recordFacts(sites: SiteDirectory, record: PartnerRecord, idLabel: string, id: string): Array<[string, HtmlValue]> {
  return [
    [t('records.col.status'), statusBadge(record.status)],
    [t('records.col.reference'), html`<code>${record.referenceNo}</code>`],
    [idLabel, html`<code>${id}</code>`],
    [t('records.col.site'), siteLink(sites, record.siteId)],
    [t('records.col.user'), html`<code>${record.externalUserId}</code> ${record.externalUserLabel ?? ''}`],
  ];
}
