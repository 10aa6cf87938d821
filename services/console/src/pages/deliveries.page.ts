import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AttemptView, EventView, ListPage, OpsEventDetail } from '@kasa/contracts';
import { actionForm, emptyRow, facts, jsonBlock, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext } from './page-context.js';
import { siteDirectory, siteLink } from './site-names.js';

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

function attemptRows(attempts: AttemptView[]): SafeHtml {
  if (attempts.length === 0) return emptyRow(6, 'No delivery attempt yet.');
  return html`${attempts.map(
    (a) =>
      html`<tr class="${a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 ? '' : 'failed'}">
        <td>${a.attemptNo}</td>
        <td>${formatTime(a.startedAt)}</td>
        <td><code>${a.url}</code></td>
        <td class="num">${a.durationMs} ms</td>
        <td>${a.statusCode ?? '—'}</td>
        <td>
          ${a.error ?? ''}${
            a.responseBody
              ? html`<details>
                  <summary>Response body</summary>
                  <pre class="json">${a.responseBody}</pre>
                </details>`
              : ''
          }
        </td>
      </tr>`,
  )}`;
}

/** `/deliveries`: the webhook delivery ledger across sites, one event's attempts, and replay. */
export function deliveryRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/deliveries', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = STATUS_TABS.some(([value]) => value === ctx.query('status')) ? (ctx.query('status') as string) : '';
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
      <table class="list">
        <thead>
          <tr>
            <th>Created</th>
            <th>Event</th>
            <th>Type</th>
            <th>Status</th>
            <th class="num">Attempts</th>
            <th>Last attempt</th>
            <th></th>
          </tr>
        </thead>
        <tbody>
          ${
            page.data.length === 0
              ? emptyRow(7, 'No events match.')
              : page.data.map(
                  (e) =>
                    html`<tr data-id="${e.eventId}" class="${e.status === 'DEAD' ? 'dead' : ''}">
                      <td>${formatTime(e.createdAt)}</td>
                      <td>
                        <a href="/deliveries/${seg(e.eventId)}"><code>${e.eventId}</code></a>
                      </td>
                      <td>${e.type}</td>
                      <td>${statusBadge(e.status)}</td>
                      <td class="num">${e.attemptCount}</td>
                      <td>${formatTime(e.lastAttemptAt)}</td>
                      <td>${replayForm(ctx, e)}</td>
                    </tr>`,
                )
          }
        </tbody>
      </table>
      ${nextPageLink('/deliveries', filters, page.nextCursor)}`;
    ctx.render('Deliveries', 'deliveries', body);
  });

  router.get('/deliveries/:eventId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [event, sites] = await Promise.all([
      ctx.ops.get<OpsEventDetail>(`/events/${seg(pathParam(req, 'eventId'))}`),
      siteDirectory(ctx.ops),
    ]);
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
        <table class="list">
          <thead>
            <tr>
              <th>#</th>
              <th>Started</th>
              <th>URL</th>
              <th class="num">Took</th>
              <th>HTTP</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            ${attemptRows(event.attempts)}
          </tbody>
        </table>
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
