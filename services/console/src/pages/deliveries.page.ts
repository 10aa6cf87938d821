import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { DeliveryHealthList, OpsEvent, OpsEventDetail, SiteDeliveryHealth } from '@kasa/contracts';
import { EVENT_TYPES } from '@kasa/contracts';
import { waitedFor } from '@kasa/ops-client';
import { actionForm, currentTab, facts, jsonBlock, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime, shortId } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { siteDirectory, siteLink, withSites, type SiteDirectory } from './site-names.js';

const STATUS_TABS: Array<[string, string]> = [
  ['', 'All'],
  ['DEAD', 'Dead'],
  ['PENDING', 'Pending'],
  ['DELIVERED', 'Delivered'],
];

/** Only a finished cycle can be replayed; the ledger answers 409 for one still in flight. */
function replayForm(ctx: FormContext, event: Pick<OpsEvent, 'eventId' | 'type' | 'status'>): SafeHtml | '' {
  if (event.status !== 'DEAD' && event.status !== 'DELIVERED') return '';
  return actionForm(ctx, {
    action: `/deliveries/${seg(event.eventId)}/replay`,
    label: 'Replay',
    tone: event.status === 'DEAD' ? 'primary' : 'plain',
    confirm: `Deliver event ${event.eventId} (${event.type}) again? The partner receives the same eventId.`,
  });
}

const ATTEMPT_COLUMNS: Array<Column<OpsEventDetail['attempts'][number]>> = [
  { header: '#', cell: (a) => a.attemptNo },
  { header: 'Started', cell: (a) => formatTime(a.startedAt) },
  { header: 'URL', cell: (a) => html`<code>${a.url}</code>` },
  { header: 'Took', class: 'num', cell: (a) => `${a.durationMs} ms` },
  { header: 'HTTP', cell: (a) => a.statusCode ?? '—' },
  {
    header: 'Error',
    cell: (a) =>
      html`${a.error ?? ''}${
        a.responseBody
          ? html`<details>
              <summary>Response body</summary>
              <pre class="json">${a.responseBody}</pre>
            </details>`
          : ''
      }`,
  },
];

function eventColumns(ctx: FormContext, sites: SiteDirectory): Array<Column<OpsEvent>> {
  return [
    { header: 'Created', cell: (e) => formatTime(e.createdAt) },
    {
      header: 'Event',
      cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}"><code>${shortId(e.eventId)}</code></a>`,
      cellTitle: (e) => e.eventId,
    },
    { header: 'Site', cellClass: 'nowrap', cell: (e) => siteLink(sites, e.siteId) },
    { header: 'Type', cell: (e) => e.type },
    { header: 'Status', cell: (e) => statusBadge(e.status) },
    { header: 'Attempts', class: 'num', cell: (e) => e.attemptCount },
    { header: 'Last attempt', cell: (e) => formatTime(e.lastAttemptAt) },
    { header: '', cell: (e) => replayForm(ctx, e) },
  ];
}

/** A partner's last failure in a few words: the HTTP status, or what went wrong before an answer. */
function failureText(health: SiteDeliveryHealth): string {
  if (!health.lastFailure) return '';
  return health.lastFailure.statusCode ? `HTTP ${health.lastFailure.statusCode}` : (health.lastFailure.error ?? 'failed');
}

/** Each partner's deliveries: success rate in the window, failing since, last error, DEAD and PENDING events. */
function healthTable(list: DeliveryHealthList, now: Date): SafeHtml {
  return table({
    columns: [
      {
        header: 'Site',
        cellClass: 'nowrap',
        cell: (s) => html`<a href="/deliveries?siteId=${encodeURIComponent(s.siteId)}" title="${s.name}">${s.slug}</a>`,
      },
      {
        header: `Success (${list.windowHours} h)`,
        class: 'num',
        cell: (s) => (s.successRate === null ? html`<span class="muted">no traffic</span>` : `${Math.round(s.successRate * 1000) / 10} %`),
      },
      { header: 'Attempts', class: 'num', cell: (s) => s.attempts },
      {
        header: 'Failing for',
        cell: (s) =>
          s.failingSince
            ? html`<span class="badge danger" title="since ${formatTime(s.failingSince)}">${waitedFor(s.failingSince, now)}</span>`
            : '',
      },
      {
        header: 'Last error',
        cell: (s) => (s.lastFailure ? html`${failureText(s)} <span class="muted">${formatTime(s.lastFailure.at)}</span>` : ''),
      },
      {
        header: 'Dead',
        class: 'num',
        cell: (s) =>
          s.deadEvents > 0 ? html`<a href="/deliveries?status=DEAD&amp;siteId=${encodeURIComponent(s.siteId)}">${s.deadEvents}</a>` : '0',
      },
      { header: 'Pending', class: 'num', cell: (s) => s.pendingEvents },
      {
        header: 'Webhook URL',
        cell: (s) => (s.webhookUrl ? html`<code>${s.webhookUrl}</code>` : html`<span class="muted">not set</span>`),
      },
    ],
    rows: list.data,
    rowId: (s) => s.siteId,
    rowClass: (s) => (s.failingSince || s.deadEvents > 0 ? 'dead' : ''),
    empty: 'No sites yet.',
  });
}

/** `/deliveries`: each partner's health, the webhook delivery ledger across sites, one event's attempts, and replay. */
export function deliveryRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/deliveries', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(STATUS_TABS, ctx.query('status'), '');
    const type = (EVENT_TYPES as readonly string[]).includes(ctx.query('type') ?? '') ? ctx.query('type') : undefined;
    const sites = await siteDirectory(ctx.ops);
    const siteId = sites.has(ctx.query('siteId') ?? '') ? ctx.query('siteId') : undefined;
    const filters = { status, type, siteId };
    const [page, health] = await Promise.all([
      ctx.ops.call('opsListEvents', { query: { ...filters, limit: '50', cursor: ctx.query('cursor') } }),
      ctx.ops.call('deliveryHealth', { query: { siteId } }),
    ]);
    const body = html`<section>
        <h2>Partners</h2>
        <p class="hint">A partner is failing while its last delivery failed; its DEAD events are replayed from the list below.</p>
        ${healthTable(health, new Date(health.generatedAt))}
      </section>
      <section class="events">
        <h2>Events</h2>
        ${tabs('/deliveries', status, STATUS_TABS, { type, siteId })}
        <form method="get" action="/deliveries" class="filters">
          <input type="hidden" name="status" value="${status}" />
          <label
            >Site
            <select name="siteId">
              <option value="">All sites</option>
              ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${s.siteId === siteId ? html` selected` : ''}>${s.slug}</option>`)}
            </select></label
          >
          <label
            >Type
            <select name="type">
              <option value="">any</option>
              ${EVENT_TYPES.map((t) => html`<option${t === type ? html` selected` : ''}>${t}</option>`)}
            </select></label
          >
          <button type="submit" class="btn plain">Filter</button>
        </form>
        ${table({
          columns: eventColumns(ctx, sites),
          rows: page.data,
          rowId: (e) => e.eventId,
          rowClass: (e) => (e.status === 'DEAD' ? 'dead' : ''),
          empty: 'No events match.',
        })}
        ${nextPageLink('/deliveries', filters, page.nextCursor)}
      </section>`;
    ctx.render('Deliveries', 'deliveries', body);
  });

  router.get('/deliveries/:eventId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [event, sites] = await withSites(ctx.ops, ctx.ops.call('opsGetEvent', { params: { eventId: pathParam(req, 'eventId') } }));
    const body = html`<section class="card${event.status === 'DEAD' ? ' dead' : ''}">
        ${facts([
          ['Status', statusBadge(event.status)],
          ['Event id', html`<code>${event.eventId}</code>`],
          ['Type', event.type],
          ['Site', siteLink(sites, event.siteId)],
          ['Created', formatTime(event.createdAt)],
          ['Attempts', String(event.attemptCount)],
          ['Delivered at', formatTime(event.deliveredAt)],
          ['Dead since', formatTime(event.deadAt)],
        ])}
        ${replayForm(ctx, event)}
      </section>
      <section>
        <h2>Attempts</h2>
        ${table({
          columns: ATTEMPT_COLUMNS,
          rows: event.attempts,
          rowClass: (a) => (a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 ? '' : 'failed'),
          empty: 'No delivery attempt yet.',
        })}
      </section>
      <section>
        <h2>Payload</h2>
        ${jsonBlock(event.payload)}
      </section>`;
    ctx.render(`Event ${event.type}`, 'deliveries', body);
  });

  router.post('/deliveries/:eventId/replay', async (req, res) => {
    const ctx = actionContext(deps, req, res, `/deliveries/${seg(pathParam(req, 'eventId'))}`);
    await ctx.ops.call('opsReplayEvent', { params: { eventId: pathParam(req, 'eventId') } });
    ctx.done('event-replayed');
  });

  return router;
}
