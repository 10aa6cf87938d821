import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AuditEntry, ListPage } from '@kasa/contracts';
import { nextPageLink } from '../views/components.js';
import { formatTime, shortId } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';
import { getWithSites, siteLink, type SiteDirectory } from './site-names.js';

const FILTERS = ['action', 'entityType', 'entityId', 'actorId', 'siteId'] as const;

/** Where an audited record can be looked at in the console, if anywhere. */
const ENTITY_PAGES: Record<string, string> = {
  deposit_intent: '/intents/',
  withdrawal: '/withdrawals/',
  outbox_event: '/deliveries/',
  site: '/sites/',
};

function entityCell(entry: AuditEntry): SafeHtml {
  const base = ENTITY_PAGES[entry.entityType];
  const label = html`${entry.entityType} <code title="${entry.entityId}">${shortId(entry.entityId)}</code>`;
  return base ? html`<a href="${safeUrl(base + seg(entry.entityId))}">${label}</a>` : label;
}

function auditColumns(sites: SiteDirectory): Array<Column<AuditEntry>> {
  return [
    { header: 'When', cell: (e) => formatTime(e.createdAt) },
    { header: 'Who', cellTitle: (e) => e.actor.id, cell: (e) => e.actor.email ?? `${e.actor.type.toLowerCase()} ${e.actor.id}` },
    { header: 'Action', cell: (e) => html`<code>${e.action}</code>` },
    { header: 'Record', cell: entityCell },
    { header: 'Site', cell: (e) => siteLink(sites, e.siteId) },
    {
      header: 'Details',
      cell: (e) => (e.metadata && Object.keys(e.metadata).length > 0 ? html`<code class="meta">${JSON.stringify(e.metadata)}</code>` : ''),
    },
  ];
}

/** `GET /audit`: who did what and when, filterable the way the ops API allows, newest first. */
export function auditRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/audit', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const filters: Record<string, string | undefined> = {};
    for (const name of FILTERS) filters[name] = ctx.query(name)?.trim() || undefined;
    const query = { ...filters, limit: '50', cursor: ctx.query('cursor') };
    const [page, sites] = await getWithSites<ListPage<AuditEntry>>(ctx.ops, '/audit', query);
    const body = html`<form method="get" action="/audit" class="filters">
        ${FILTERS.map((name) => html`<label>${name} <input type="text" name="${name}" value="${filters[name] ?? ''}" size="${name === 'action' || name === 'entityType' ? 16 : 36}" /></label>`)}
        <button type="submit" class="btn plain">Filter</button> <a href="/audit">Clear</a>
      </form>
      ${table({ columns: auditColumns(sites), rows: page.data, empty: 'No audit entries match.' })}
      ${nextPageLink('/audit', filters, page.nextCursor)}`;
    ctx.render('Audit log', 'audit', body);
  });

  return router;
}
