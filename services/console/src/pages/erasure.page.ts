import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { ResponseOf } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t } from '../i18n/index.js';
import { formatTime } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

type ErasureRequest = ResponseOf<'ErasureRequest'>;
type Waiting = ErasureRequest['waiting']['records'][number];
const DAY_MS = 24 * 60 * 60 * 1000;

/** The 30-day timer: overdue in red while still open past its due date, else the days left (or when it was answered). */
function timer(request: ErasureRequest): SafeHtml {
  if (request.overdue) return html`<strong class="badge alert">${t('records.erasure.overdue')}</strong> ${formatTime(request.dueAt)}`;
  if (request.status !== 'OPEN') return html`${formatTime(request.dueAt)}`;
  const days = Math.max(0, Math.ceil((new Date(request.dueAt).getTime() - Date.now()) / DAY_MS));
  return html`${formatTime(request.dueAt)} <small class="muted">${t('records.erasure.daysLeft', { days })}</small>`;
}

const columns = (sites: SiteDirectory): Array<Column<ErasureRequest>> => [
  {
    header: t('records.erasure.col.received'),
    cell: (r) => html`<a href="/erasure-requests/${seg(r.erasureRequestId)}">${formatTime(r.receivedAt)}</a>`,
  },
  { header: t('records.erasure.site'), cell: (r) => siteLink(sites, r.siteId) },
  { header: t('records.erasure.user'), cell: (r) => html`<code>${r.externalUserId}</code>` },
  { header: t('records.erasure.col.status'), cell: (r) => t(`records.erasure.status.${r.status}`) },
  { header: t('records.erasure.col.due'), cell: timer },
  { header: t('records.erasure.col.waiting'), class: 'num', cell: (r) => r.waiting.count },
];

const waitingColumns = (): Array<Column<Waiting>> => [
  { header: t('records.erasure.col.record'), cell: (w) => html`${w.recordType} <code>${w.recordId}</code>` },
  { header: t('records.erasure.col.hold'), cell: (w) => t(`records.erasure.hold.${w.hold}`) },
  { header: t('records.erasure.col.until'), cell: (w) => (w.holdEndsAt ? formatTime(w.holdEndsAt) : t('records.erasure.untilReleased')) },
];

function fileForm(ctx: PageContext, sites: SiteDirectory): SafeHtml {
  return html`<form method="post" action="/erasure-requests" class="card grid-form" data-confirm="${t('records.erasure.confirm')}">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('records.erasure.site')}
      <select name="siteId" required>
        ${[...sites.values()].filter((s) => s.livemode).map((s) => html`<option value="${s.siteId}">${s.slug}</option>`)}
      </select></label
    >
    <label>${t('records.erasure.user')} <input type="text" name="externalUserId" required maxlength="64" /></label>
    <label>${t('records.erasure.reason')} <input type="text" name="reason" required maxlength="500" /></label>
    <div><button type="submit" class="btn primary">${t('records.erasure.file')}</button></div>
  </form>`;
}

/**
 * `/erasure-requests`: KVKK erasure requests with their 30-day timer (overdue marked), the admins' form to file one, and
 * each request's page: what was anonymised and what waits for which hold (docs/compliance.md, Retention and erasure).
 */
export function erasureRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/erasure-requests', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [requests, sites] = await Promise.all([ctx.ops.call('listErasureRequests', { query: { limit: '100' } }), siteDirectory(ctx.ops)]);
    const body = html`<p class="hint">${t('records.erasure.hint')}</p>
      ${table({ columns: columns(sites), rows: requests.data, rowId: (r) => r.erasureRequestId, empty: t('records.erasure.empty') })}
      ${
        ctx.isAdmin
          ? html`<section>
              <h2>${t('records.erasure.new')}</h2>
              ${fileForm(ctx, sites)}
            </section>`
          : html`<p class="hint">${t('records.erasure.adminOnly')}</p>`
      }`;
    ctx.render(t('common.nav.erasure'), 'erasure', body);
  });

  router.get('/erasure-requests/:erasureRequestId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const erasureRequestId = pathParam(req, 'erasureRequestId');
    const [request, sites] = await Promise.all([
      ctx.ops.call('getErasureRequest', { params: { erasureRequestId } }),
      siteDirectory(ctx.ops),
    ]);
    const body = html`<p>
        ${siteLink(sites, request.siteId)} · <code>${request.externalUserId}</code> · ${t(`records.erasure.status.${request.status}`)}
      </p>
      <p>${t('records.erasure.col.due')}: ${timer(request)}</p>
      <p class="muted">${request.reason}</p>
      <h2>${t('records.erasure.anonymised')}</h2>
      ${
        request.anonymised.length === 0
          ? html`<p class="muted">${t('records.erasure.nothingYet')}</p>`
          : html`<ul>
              ${request.anonymised.map((a) => html`<li>${a.recordType}: ${a.count}</li>`)}
            </ul>`
      }
      <h2>${t('records.erasure.waitingTitle')}</h2>
      ${table({ columns: waitingColumns(), rows: request.waiting.records, rowId: (w) => w.recordId, empty: t('records.erasure.noneWaiting') })}`;
    ctx.render(t('records.erasure.detailTitle'), 'erasure', body);
  });

  router.post('/erasure-requests', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/erasure-requests');
    const filed = await ctx.ops.call('createErasureRequest', {
      body: { siteId: ctx.field('siteId'), externalUserId: ctx.field('externalUserId'), reason: ctx.field('reason') },
    });
    ctx.done('erasure-request-filed', `/erasure-requests/${seg(filed.erasureRequestId)}`);
  });

  return router;
}
