import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { DeliveryHealthList, OpsEvent, OpsEventDetail, SiteDeliveryHealth } from '@kasa/contracts';
import { EVENT_TYPES } from '@kasa/contracts';
import { actionForm, currentTab, facts, jsonBlock, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { currentLocale, t, th, type MessageKey } from '../i18n/index.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';
import { userColumns, waitedText } from './record-lists.js';
import { siteDirectory, siteLink, withSites, type SiteDirectory } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

const STATUS_TABS: Array<[string, MessageKey]> = [
  ['', 'records.deliveries.tab.all'],
  ['DEAD', 'records.deliveries.tab.dead'],
  ['PENDING', 'records.deliveries.tab.pending'],
  ['DELIVERED', 'records.deliveries.tab.delivered'],
];

/** The status tabs in the request's language. */
const statusTabs = (): Array<[string, string]> => STATUS_TABS.map(([status, key]) => [status, t(key)]);

/** Only a finished cycle can be replayed; the ledger answers 409 for one still in flight. */
function replayForm(ctx: FormContext, event: Pick<OpsEvent, 'eventId' | 'type' | 'status'>): SafeHtml | '' {
  if (event.status !== 'DEAD' && event.status !== 'DELIVERED') return '';
  return actionForm(ctx, {
    action: `/deliveries/${seg(event.eventId)}/replay`,
    label: t('records.deliveries.replay'),
    tone: event.status === 'DEAD' ? 'primary' : 'plain',
    confirm: t('records.deliveries.replayConfirm', { id: event.eventId, type: event.type }),
  });
}

/** A PENDING event waiting out its retry delay: its next attempt now, counted as that attempt (the ledger never adds one). */
function retryNowForm(ctx: FormContext, event: Pick<OpsEvent, 'eventId' | 'status'>): SafeHtml | '' {
  if (event.status !== 'PENDING') return '';
  return actionForm(ctx, {
    action: `/deliveries/${seg(event.eventId)}/retry-now`,
    label: t('records.deliveries.retryNow'),
    tone: 'primary',
  });
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
const attemptsText = (event: Pick<OpsEvent, 'attemptCount'>, maxAttempts: number) =>
  t('records.deliveries.attemptsOf', { count: event.attemptCount, max: maxAttempts });

/** When a PENDING event is next attempted: its time, or "due now" once that time has passed (a worker takes it next). */
function nextAttemptText(event: Pick<OpsEvent, 'status' | 'nextAttemptAt'>, now: Date): SafeHtml | string {
  if (event.status !== 'PENDING' || !event.nextAttemptAt) return '—';
  if (Date.parse(event.nextAttemptAt) <= now.getTime()) return html`<span class="badge info">${t('records.deliveries.dueNow')}</span>`;
  return formatTime(event.nextAttemptAt);
}

/** The columns of an event's attempts, in the request's language. */
const attemptColumns = (): Array<Column<OpsEventDetail['attempts'][number]>> => [
  { header: t('records.deliveries.col.number'), cell: (a) => a.attemptNo },
  { header: t('records.deliveries.col.started'), cell: (a) => formatTime(a.startedAt) },
  { header: t('records.deliveries.col.url'), cell: (a) => html`<code>${a.url}</code>` },
  { header: t('records.deliveries.col.took'), class: 'num', cell: (a) => t('records.deliveries.ms', { ms: a.durationMs }) },
  { header: t('records.deliveries.col.http'), cell: (a) => a.statusCode ?? '—' },
  {
    header: t('records.deliveries.col.error'),
    cell: (a) =>
      html`${a.error ?? ''}${
        a.responseBody
          ? html`<details>
              <summary>${t('records.deliveries.responseBody')}</summary>
              <pre class="json">${a.responseBody}</pre>
            </details>`
          : ''
      }`,
  },
];

function eventColumns(ctx: FormContext, sites: SiteDirectory, maxAttempts: number, now: Date): Array<Column<OpsEvent>> {
  return [
    { header: t('records.col.created'), cell: (e) => formatTime(e.createdAt) },
    {
      header: t('records.col.event'),
      cell: (e) => html`<a href="/deliveries/${seg(e.eventId)}">${e.type}</a>`,
      cellTitle: (e) => e.eventId,
    },
    { header: t('records.col.reference'), cell: subjectLink },
    ...userColumns<OpsEvent>((e) => e.user),
    { header: t('records.col.site'), cellClass: 'nowrap', cell: (e) => siteLink(sites, e.siteId) },
    { header: t('records.col.status'), cell: (e) => statusBadge(e.status) },
    { header: t('records.col.attempts'), class: 'num', cell: (e) => attemptsText(e, maxAttempts) },
    { header: t('records.deliveries.col.nextAttempt'), cell: (e) => nextAttemptText(e, now) },
    { header: '', cellClass: 'nowrap', cell: (e) => html`${retryNowForm(ctx, e)}${replayForm(ctx, e)}` },
  ];
}

/**
 * "Replay all DEAD events of this site", above a site's events: each DEAD event starts a new delivery cycle, audited
 * with the operator; the page that answers says how many.
 */
function replayDeadForm(ctx: FormContext, health: SiteDeliveryHealth | undefined): SafeHtml | '' {
  if (!health || health.deadEvents === 0) return '';
  const events = deadCount(health.deadEvents);
  return html`<div class="warn site-replay">
    <p>${th('records.deliveries.siteDead', { slug: html`<strong>${health.slug}</strong>`, events })}</p>
    ${actionForm(ctx, {
      action: `/deliveries/sites/${seg(health.siteId)}/replay-dead`,
      label: t('records.deliveries.replayDead'),
      tone: 'primary',
      confirm: t('records.deliveries.replayDeadConfirm', { events, slug: health.slug }),
    })}
  </div>`;
}

/** "3 DEAD events" in the request's language. */
const deadCount = (count: number) => (count === 1 ? t('records.deliveries.deadOne') : t('records.deliveries.deadMany', { count }));

/** A success rate (0.955) as a percentage with one decimal in the request's language: "95.5 %", "%95,5". */
function rateText(rate: number): string {
  const rounded = Math.round(rate * 1000) / 10;
  return t('records.deliveries.rate', { rate: currentLocale() === 'tr' ? String(rounded).replace('.', ',') : String(rounded) });
}

/** A partner's last failure in a few words: the HTTP status, or what went wrong before an answer. */
function failureText(health: SiteDeliveryHealth): string {
  if (!health.lastFailure) return '';
  return health.lastFailure.statusCode
    ? `HTTP ${health.lastFailure.statusCode}`
    : (health.lastFailure.error ?? t('records.deliveries.failed'));
}

/** Each partner's deliveries: success rate in the window, failing since, last error, DEAD and PENDING events. */
function healthTable(list: DeliveryHealthList, now: Date): SafeHtml {
  return table({
    columns: [
      {
        header: t('records.col.site'),
        cellClass: 'nowrap',
        cell: (s) => html`<a href="/deliveries?siteId=${encodeURIComponent(s.siteId)}" title="${s.name}">${s.slug}</a>`,
      },
      {
        header: t('records.deliveries.col.success', { hours: list.windowHours }),
        class: 'num',
        cell: (s) =>
          s.successRate === null ? html`<span class="muted">${t('records.deliveries.noTraffic')}</span>` : rateText(s.successRate),
      },
      { header: t('records.col.attempts'), class: 'num', cell: (s) => s.attempts },
      {
        header: t('records.deliveries.col.failingFor'),
        cell: (s) =>
          s.failingSince
            ? html`<span class="badge danger" title="${t('records.waiting.since', { time: formatTime(s.failingSince) })}"
                >${waitedText(s.failingSince, now)}</span
              >`
            : '',
      },
      {
        header: t('records.deliveries.col.lastError'),
        cell: (s) => (s.lastFailure ? html`${failureText(s)} <span class="muted">${formatTime(s.lastFailure.at)}</span>` : ''),
      },
      {
        header: t('records.deliveries.col.dead'),
        class: 'num',
        cell: (s) =>
          s.deadEvents > 0 ? html`<a href="/deliveries?status=DEAD&amp;siteId=${encodeURIComponent(s.siteId)}">${s.deadEvents}</a>` : '0',
      },
      { header: t('records.deliveries.col.pending'), class: 'num', cell: (s) => s.pendingEvents },
      {
        header: t('records.deliveries.col.webhookUrl'),
        cell: (s) =>
          s.webhookUrl ? html`<code>${s.webhookUrl}</code>` : html`<span class="muted">${t('records.deliveries.notSet')}</span>`,
      },
    ],
    rows: list.data,
    rowId: (s) => s.siteId,
    rowClass: (s) => (s.failingSince || s.deadEvents > 0 ? 'dead' : ''),
    empty: t('records.deliveries.noSites'),
  });
}

/** `/deliveries`: each partner's health, the webhook delivery ledger across sites, one event's attempts, and replay. */
export function deliveryRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/deliveries', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(statusTabs(), ctx.query('status'), '');
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
        <h2>${t('records.deliveries.partners')}</h2>
        <p class="hint">${t('records.deliveries.partnersHint')}</p>
        ${healthTable(health, new Date(health.generatedAt))}
      </section>
      <section class="events">
        <h2>${t('records.deliveries.events')}</h2>
        ${tabs('/deliveries', status, statusTabs(), { type, siteId })}
        <form method="get" action="/deliveries" class="filters">
          <input type="hidden" name="status" value="${status}" />
          <label
            >${t('records.filter.site')}
            <select name="siteId">
              <option value="">${t('records.filter.allSites')}</option>
              ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${s.siteId === siteId ? html` selected=""` : ''}>${s.slug}</option>`)}
            </select></label
          >
          <label
            >${t('records.col.type')}
            <select name="type">
              <option value="">${t('records.deliveries.anyType')}</option>
              ${EVENT_TYPES.map((known) => html`<option${known === type ? html` selected=""` : ''}>${known}</option>`)}
            </select></label
          >
          <button type="submit" class="btn plain">${t('records.filter.submit')}</button>
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
          empty: t('records.deliveries.empty'),
        })}
        ${nextPageLink('/deliveries', filters, page.nextCursor)} ${exportCsvLink('events', filters)}
      </section>`;
    ctx.render(t('records.deliveries.title'), 'deliveries', body);
  });

  router.get('/deliveries/:eventId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [event, sites] = await withSites(ctx.ops, ctx.ops.call('opsGetEvent', { params: { eventId: pathParam(req, 'eventId') } }));
    const body = html`<section class="card${event.status === 'DEAD' ? ' dead' : ''}">
        ${
          /^\d{1,3}$/.test(ctx.query('retried') ?? '')
            ? html`<p class="notice" role="status">
                ${t('records.deliveries.broughtForward', { n: ctx.query('retried') ?? '', max: deps.config.webhookMaxAttempts })}
              </p>`
            : ''
        }
        ${facts([
          [t('records.col.status'), statusBadge(event.status)],
          [t('records.col.type'), event.type],
          [t('records.col.reference'), subjectLink(event)],
          [t('records.col.user'), event.user ? (event.user.externalUserLabel ?? '—') : '—'],
          [t('records.col.userId'), event.user ? html`<code>${event.user.externalUserId}</code>` : '—'],
          [t('records.col.site'), siteLink(sites, event.siteId)],
          [t('records.deliveries.eventId'), html`<code>${event.eventId}</code>`],
          [t('records.col.created'), formatTime(event.createdAt)],
          [t('records.col.attempts'), attemptsText(event, deps.config.webhookMaxAttempts)],
          [t('records.deliveries.lastAttempt'), formatTime(event.lastAttemptAt)],
          [t('records.deliveries.col.nextAttempt'), event.status === 'PENDING' ? nextAttemptText(event, new Date()) : null],
          [t('records.deliveries.deliveredAt'), event.deliveredAt ? formatTime(event.deliveredAt) : null],
          [t('records.deliveries.deadSince'), event.deadAt ? formatTime(event.deadAt) : null],
        ])}
        <div class="actions">${retryNowForm(ctx, event)}${replayForm(ctx, event)}</div>
      </section>
      <section>
        <h2>${t('records.deliveries.attempts')}</h2>
        ${table({
          columns: attemptColumns(),
          rows: event.attempts,
          rowClass: (a) => (a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 ? '' : 'failed'),
          empty: t('records.deliveries.noAttempt'),
        })}
      </section>
      <section>
        <h2>${t('records.deliveries.payload')}</h2>
        ${jsonBlock(event.payload)}
      </section>`;
    const reference = (event.payload as { data?: { referenceNo?: unknown } } | null)?.data?.referenceNo;
    const title =
      typeof reference === 'string'
        ? t('records.deliveries.eventTitleOf', { type: event.type, reference })
        : t('records.deliveries.eventTitle', { type: event.type });
    ctx.render(title, 'deliveries', body);
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
    // Rendered, not redirected: the count exists only in this answer.
    const body = html`<section class="card replay-result">
      <p class="notice" role="status">${t('records.deliveries.replayed', { count: deadCount(result.replayed), slug })}</p>
      <p>
        <a class="btn plain" href="/deliveries?siteId=${encodeURIComponent(siteId)}">${t('records.deliveries.backTo', { slug })}</a>
      </p>
    </section>`;
    pageContext(deps, req, res).render(t('records.deliveries.replayTitle'), 'deliveries', body);
  });

  router.post('/deliveries/:eventId/replay', async (req, res) => {
    const ctx = actionContext(deps, req, res, `/deliveries/${seg(pathParam(req, 'eventId'))}`);
    await ctx.ops.call('opsReplayEvent', { params: { eventId: pathParam(req, 'eventId') } });
    ctx.done('event-replayed');
  });

  return router;
}
