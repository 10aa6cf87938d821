import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AttemptView, EventView, ListPage, OpsEventDetail } from '@kasa/contracts';
import { actionForm, currentTab, facts, jsonBlock, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { getWithSites, siteLink } from './site-names.js';

const STATUS_TABS: Array<[string, string]> = [
  ['', 'All'],
  ['DEAD', 'Dead'],
  ['PENDING', 'Pending'],
  ['DELIVERED', 'Delivered'],
];

const EVENT_TYPES = ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'];

/** Only a finished cycle can be replayed; the ledger answers 409 for one still in flight. */
function replayForm(ctx: FormContext, event: EventView): SafeHtml | '' {
  if (event.status !== 'DEAD' && event.status !== 'DELIVERED') return '';
  return actionForm(ctx, {
    action: `/deliveries/${seg(event.eventId)}/replay`,
    label: 'Replay',
    tone: event.status === 'DEAD' ? 'primary' : 'plain',
    confirm: `Deliver event ${event.eventId} (${event.type}) again? The partner receives the same eventId.`,
  });
}

const ATTEMPT_COLUMNS: Array<Column<AttemptView>> = [
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

function eventColumns(ctx: FormContext): Array<Column<EventView>> {
  return [
    { header: 'Created', cell: (e) => formatTime(e.createdAt) },
    { header: 'Event', cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}"><code>${e.eventId}</code></a>` },
    { header: 'Type', cell: (e) => e.type },
    { header: 'Status', cell: (e) => statusBadge(e.status) },
    { header: 'Attempts', class: 'num', cell: (e) => e.attemptCount },
    { header: 'Last attempt', cell: (e) => formatTime(e.lastAttemptAt) },
    { header: '', cell: (e) => replayForm(ctx, e) },
  ];
}

/** `/deliveries`: the webhook delivery ledger across sites, one event's attempts, and replay. */
export function deliveryRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/deliveries', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(STATUS_TABS, ctx.query('status'), '');
    const type = EVENT_TYPES.includes(ctx.query('type') ?? '') ? ctx.query('type') : undefined;
    const filters = { status, type };
    const page = await ctx.ops.get<ListPage<EventView>>('/events', { ...filters, limit: '50', cursor: ctx.query('cursor') });
    const body = html`${tabs('/deliveries', status, STATUS_TABS, { type })}
      <form method="get" action="/deliveries" class="filters">
        <input type="hidden" name="status" value="${status}" />
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
        columns: eventColumns(ctx),
        rows: page.data,
        rowId: (e) => e.eventId,
        rowClass: (e) => (e.status === 'DEAD' ? 'dead' : ''),
        empty: 'No events match.',
      })}
      ${nextPageLink('/deliveries', filters, page.nextCursor)}`;
    ctx.render('Deliveries', 'deliveries', body);
  });

  router.get('/deliveries/:eventId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [event, sites] = await getWithSites<OpsEventDetail>(ctx.ops, `/events/${seg(pathParam(req, 'eventId'))}`);
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
    await ctx.ops.post(`/events/${seg(pathParam(req, 'eventId'))}/replay`, {});
    ctx.done('event-replayed');
  });

  return router;
}
