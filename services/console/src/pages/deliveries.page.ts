import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { DeliveryHealthList, OpsEvent, OpsEventDetail, SiteDeliveryHealth } from '@kasa/contracts';
import { EVENT_TYPES } from '@kasa/contracts';
import { waitedFor } from '@kasa/ops-client';
import { actionForm, currentTab, facts, jsonBlock, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { userColumns } from './record-lists.js';
import { siteDirectory, siteLink, withSites, type SiteDirectory } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

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

/** A PENDING event waiting out its retry delay: its next attempt now, counted as that attempt (the ledger never adds one). */
function retryNowForm(ctx: FormContext, event: Pick<OpsEvent, 'eventId' | 'status'>): SafeHtml | '' {
  if (event.status !== 'PENDING') return '';
  return actionForm(ctx, { action: `/deliveries/${seg(event.eventId)}/retry-now`, label: 'Retry now', tone: 'primary' });
}

/** The deposit or withdrawal an event reports on, from its webhook data: the reference, linked to the record. */
function subjectLink(event: Pick<OpsEvent, 'payload'>): SafeHtml {
  const data = (event.payload as { data?: Record<string, unknown> } | null)?.data ?? {};
  const reference = typeof data.referenceNo === 'string' ? data.referenceNo : null;
  if (!reference) return html`<span class="muted">—</span>`;
  const href =
    typeof data.intentId === 'string'
      ? `/intents/${seg(data.intentId)}`
      : typeof data.withdrawalId === 'string'
        ? `/withdrawals/${seg(data.withdrawalId)}`
        : null;
  return href ? html`<a href="${safeUrl(href)}"><code>${reference}</code></a>` : html`<code>${reference}</code>`;
}

/** "3 of 8": the attempts of the current cycle against the cycle's limit (WEBHOOK_MAX_ATTEMPTS). */
const attemptsText = (event: Pick<OpsEvent, 'attemptCount'>, maxAttempts: number) => `${event.attemptCount} of ${maxAttempts}`;

/** When a PENDING event is next attempted: its time, or "due now" once that time has passed (a worker takes it next). */
function nextAttemptText(event: Pick<OpsEvent, 'status' | 'nextAttemptAt'>, now: Date): SafeHtml | string {
  if (event.status !== 'PENDING' || !event.nextAttemptAt) return '—';
  if (Date.parse(event.nextAttemptAt) <= now.getTime()) return html`<span class="badge info">due now</span>`;
  return formatTime(event.nextAttemptAt);
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

function eventColumns(ctx: FormContext, sites: SiteDirectory, maxAttempts: number, now: Date): Array<Column<OpsEvent>> {
  return [
    { header: 'Created', cell: (e) => formatTime(e.createdAt) },
    {
      header: 'Event',
      cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}">${e.type}</a>`,
      cellTitle: (e) => e.eventId,
    },
    { header: 'Reference', cell: subjectLink },
    ...userColumns<OpsEvent>((e) => e.user),
    { header: 'Site', cellClass: 'nowrap', cell: (e) => siteLink(sites, e.siteId) },
    { header: 'Status', cell: (e) => statusBadge(e.status) },
    { header: 'Attempts', class: 'num', cell: (e) => attemptsText(e, maxAttempts) },
    { header: 'Next attempt', cell: (e) => nextAttemptText(e, now) },
    { header: '', cellClass: 'nowrap', cell: (e) => html`${retryNowForm(ctx, e)}${replayForm(ctx, e)}` },
  ];
}

/**
 * "Replay all DEAD events of this site", above a site's events: each DEAD event starts a new delivery cycle, audited
 * with the operator; the page that answers says how many.
 */
function replayDeadForm(ctx: FormContext, health: SiteDeliveryHealth | undefined): SafeHtml | '' {
  if (!health || health.deadEvents === 0) return '';
  const events = health.deadEvents === 1 ? '1 DEAD event' : `${health.deadEvents} DEAD events`;
  return html`<div class="warn site-replay">
    <p><strong>${health.slug}</strong> has ${events}: every attempt of their last delivery cycle failed.</p>
    ${actionForm(ctx, {
      action: `/deliveries/sites/${seg(health.siteId)}/replay-dead`,
      label: 'Replay all DEAD events of this site',
      tone: 'primary',
      confirm: `Deliver all ${events} of ${health.slug} again? Each starts a new delivery cycle with the same eventId, audited with your name.`,
    })}
  </div>`;
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
    const now = new Date();
    const [page, health] = await Promise.all([
      ctx.ops.call('opsListEvents', { query: { ...filters, limit: '50', cursor: ctx.query('cursor') } }),
      ctx.ops.call('deliveryHealth', { query: { siteId } }),
    ]);
    const body = html`<section>
        <h2>Partners</h2>
        <p class="hint">
          A partner is failing while its last delivery failed. Pick a site (or its DEAD count) to replay all its DEAD events at once.
        </p>
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
        ${
          siteId
            ? replayDeadForm(
                ctx,
                health.data.find((s) => s.siteId === siteId),
              )
            : ''
        }
        ${table({
          columns: eventColumns(ctx, sites, deps.config.webhookMaxAttempts, now),
          rows: page.data,
          rowId: (e) => e.eventId,
          rowClass: (e) => (e.status === 'DEAD' ? 'dead' : ''),
          empty: 'No events match.',
        })}
        ${nextPageLink('/deliveries', filters, page.nextCursor)} ${exportCsvLink('events', filters)}
      </section>`;
    ctx.render('Deliveries', 'deliveries', body);
  });

  router.get('/deliveries/:eventId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [event, sites] = await withSites(ctx.ops, ctx.ops.call('opsGetEvent', { params: { eventId: pathParam(req, 'eventId') } }));
    const body = html`<section class="card${event.status === 'DEAD' ? ' dead' : ''}">
        ${
          /^\d{1,3}$/.test(ctx.query('retried') ?? '')
            ? html`<p class="notice" role="status">
                Attempt ${ctx.query('retried')} of ${deps.config.webhookMaxAttempts} brought forward: it runs now. Reload to see how the
                partner answered.
              </p>`
            : ''
        }
        ${facts([
          ['Status', statusBadge(event.status)],
          ['Type', event.type],
          ['Reference', subjectLink(event)],
          ['User', event.user ? (event.user.externalUserLabel ?? '—') : '—'],
          ['User id', event.user ? html`<code>${event.user.externalUserId}</code>` : '—'],
          ['Site', siteLink(sites, event.siteId)],
          ['Event id', html`<code>${event.eventId}</code>`],
          ['Created', formatTime(event.createdAt)],
          ['Attempts', attemptsText(event, deps.config.webhookMaxAttempts)],
          ['Last attempt', formatTime(event.lastAttemptAt)],
          ['Next attempt', event.status === 'PENDING' ? nextAttemptText(event, new Date()) : null],
          ['Delivered at', event.deliveredAt ? formatTime(event.deliveredAt) : null],
          ['Dead since', event.deadAt ? formatTime(event.deadAt) : null],
        ])}
        <div class="actions">${retryNowForm(ctx, event)}${replayForm(ctx, event)}</div>
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
    const reference = (event.payload as { data?: { referenceNo?: unknown } } | null)?.data?.referenceNo;
    ctx.render(`Event ${event.type}${typeof reference === 'string' ? ` of ${reference}` : ''}`, 'deliveries', body);
  });

  router.post('/deliveries/:eventId/retry-now', async (req, res) => {
    const eventId = pathParam(req, 'eventId');
    const ctx = actionContext(deps, req, res, `/deliveries/${seg(eventId)}`);
    const event = await ctx.ops.call('opsRetryEventNow', { params: { eventId } });
    // The event's page names the attempt brought forward; the attempt itself shows there once the worker has made it.
    res.redirect(303, `/deliveries/${seg(eventId)}?retried=${event.attemptCount + 1}`);
  });

  router.post('/deliveries/sites/:siteId/replay-dead', async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const ops = actionContext(deps, req, res, '/deliveries').ops;
    const [result, sites] = await withSites(ops, ops.call('opsReplayDeadEvents', { params: { siteId } }));
    const slug = sites.get(siteId)?.slug ?? siteId;
    const count = result.replayed === 1 ? '1 DEAD event' : `${result.replayed} DEAD events`;
    // Rendered, not redirected: the count exists only in this answer.
    const body = html`<section class="card replay-result">
      <p class="notice" role="status">Replayed ${count} of ${slug}: each is PENDING again, in a new delivery cycle.</p>
      <p>
        <a class="btn plain" href="/deliveries?siteId=${encodeURIComponent(siteId)}">Back to ${slug}'s deliveries</a>
      </p>
    </section>`;
    pageContext(deps, req, res).render('Replay of DEAD events', 'deliveries', body);
  });

  router.post('/deliveries/:eventId/replay', async (req, res) => {
    const ctx = actionContext(deps, req, res, `/deliveries/${seg(pathParam(req, 'eventId'))}`);
    await ctx.ops.call('opsReplayEvent', { params: { eventId: pathParam(req, 'eventId') } });
    ctx.done('event-replayed');
  });

  return router;
}
