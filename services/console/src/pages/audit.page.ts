import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AuditEntry, ListPage } from '@kasa/contracts';
import { emptyRow, nextPageLink } from '../views/components.js';
import { formatTime, shortId } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { pageContext } from './page-context.js';
import { siteDirectory, siteLink } from './site-names.js';

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

/** `GET /audit`: who did what and when, filterable the way the ops API allows, newest first. */
export function auditRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/audit', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const filters: Record<string, string | undefined> = {};
    for (const name of FILTERS) filters[name] = ctx.query(name)?.trim() || undefined;
    const [page, sites] = await Promise.all([
      ctx.ops.get<ListPage<AuditEntry>>('/audit', { ...filters, limit: '50', cursor: ctx.query('cursor') }),
      siteDirectory(ctx.ops),
    ]);
    const body = html`<form method="get" action="/audit" class="filters">
        ${FILTERS.map((name) => html`<label>${name} <input type="text" name="${name}" value="${filters[name] ?? ''}" size="${name === 'action' || name === 'entityType' ? 16 : 36}" /></label>`)}
        <button type="submit" class="btn plain">Filter</button> <a href="/audit">Clear</a>
      </form>
      <table class="list">
        <thead>
          <tr>
            <th>When</th>
            <th>Who</th>
            <th>Action</th>
            <th>Record</th>
            <th>Site</th>
            <th>Details</th>
          </tr>
        </thead>
        <tbody>
          ${
            page.data.length === 0
              ? emptyRow(6, 'No audit entries match.')
              : page.data.map(
                  (e) =>
                    html`<tr>
                      <td>${formatTime(e.createdAt)}</td>
                      <td title="${e.actor.id}">${e.actor.email ?? `${e.actor.type.toLowerCase()} ${e.actor.id}`}</td>
                      <td><code>${e.action}</code></td>
                      <td>${entityCell(e)}</td>
                      <td>${siteLink(sites, e.siteId)}</td>
                      <td>
                        ${e.metadata && Object.keys(e.metadata).length > 0 ? html`<code class="meta">${JSON.stringify(e.metadata)}</code>` : ''}
                      </td>
                    </tr>`,
                )
          }
        </tbody>
      </table>
      ${nextPageLink('/audit', filters, page.nextCursor)}`;
    ctx.render('Audit log', 'audit', body);
  });

  return router;
}
