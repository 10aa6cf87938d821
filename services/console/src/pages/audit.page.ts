import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AuditEntry, OpsOperator } from '@kasa/contracts';
import { nextPageLink, statusLabel } from '../views/components.js';
import { formatTime, formatTry, shortId } from '../views/format.js';
import { MESSAGES, t, type MessageKey } from '../i18n/index.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';
import { RECORD_PAGES } from './record-pages.js';
import { siteLink, withSites, type SiteDirectory } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

const FILTERS = ['actorId', 'action', 'entityType', 'entityId', 'siteId'] as const;

/** Where an audited record can be looked at in the console, if anywhere: a record kind's as its page declares. */
const ENTITY_PAGES: Record<string, string> = {
  ...Object.fromEntries(RECORD_PAGES.flatMap(({ audit }) => (audit.detailPrefix ? [[audit.entityType, audit.detailPrefix]] : []))),
  outbox_event: '/deliveries/',
  site: '/sites/',
};

/** The kinds of record the filter offers: the record kinds' (record-pages.ts) first, in the navigation's order. */
const ENTITY_TYPES = [
  ...RECORD_PAGES.map((page) => page.audit.entityType),
  'outbox_event',
  'site',
  'api_key',
  'operator',
  'operator_token',
  'receiving_account',
  'ops_request',
  'screening_hit',
  'screening_list_version',
  'risk_flag',
  'risk_report',
  'erasure_request',
  'legal_hold',
] as const;

/** A kind of record as the operator reads it ("Deposit", "Yatırım"); an unknown kind as the ledger names it. */
function entityLabel(type: string): string {
  return (ENTITY_TYPES as readonly string[]).includes(type) ? t(`records.audit.entity.${type as (typeof ENTITY_TYPES)[number]}`) : type;
}

/**
 * What an entry did as the operator reads it ("Deposit approved", "Yatırım onaylandı"), or null for an action the
 * catalogue does not know yet (the code alone is shown then).
 */
export function actionLabel(action: string): string | null {
  const key = `records.audit.did.${action}`;
  return key in MESSAGES.en ? t(key as MessageKey) : null;
}

/** Who did it when no e-mail names them: "operator 3f2a…", "system", in the request's language. */
function actorKind(type: string): string {
  const key = `records.audit.actor.${type}`;
  return key in MESSAGES.en ? t(key as MessageKey) : type.toLowerCase();
}

/**
 * The actions the filter suggests: every action with words in the catalogue (`records.audit.did.<ACTION>`), in its
 * order, so a record kind's actions are suggested once they are named; any other can still be typed.
 */
const DID = 'records.audit.did.';
const KNOWN_ACTIONS = Object.keys(MESSAGES.en)
  .filter((key) => key.startsWith(DID))
  .map((key) => key.slice(DID.length));

const AMOUNT_KEYS = new Set(['amount', 'requestedAmount', 'receivedAmount', 'transferAmount', 'minAmount', 'maxAmount', 'approvedAmount']);

/** One value of a change as an operator reads it: amounts in lira, times in Türkiye time, statuses in words, nothing as "—". */
function valueText(key: string, value: unknown): SafeHtml | string {
  if (value === null || value === undefined || value === '') return html`<span class="muted">—</span>`;
  if (AMOUNT_KEYS.has(key) && typeof value === 'string' && /^-?\d+$/.test(value)) return formatTry(value);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return formatTime(value);
  if (key === 'status' && typeof value === 'string') return statusLabel(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return html`<code class="meta">${JSON.stringify(value)}</code>`;
}

/**
 * What an entry changed: each setting before and after (`SITE.SETTINGS_CHANGED`), a status from and to,
 * then the entry's other facts (reason, amounts, ids), one per line.
 */
export function changeCell(metadata: unknown): SafeHtml | '' {
  if (!metadata || typeof metadata !== 'object') return '';
  const { before, after, from, to, ...rest } = metadata as Record<string, unknown>;
  const rows: SafeHtml[] = [];
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    for (const key of Object.keys(after)) {
      rows.push(
        html`<li class="diff">
          <span class="key">${key}</span> ${valueText(key, (before as Record<string, unknown>)[key])} →
          <strong>${valueText(key, (after as Record<string, unknown>)[key])}</strong>
        </li>`,
      );
    }
  }
  if (typeof from === 'string' || typeof to === 'string') {
    rows.push(
      html`<li class="diff">
        <span class="key">${t('records.audit.statusKey')}</span> ${valueText('status', from)} → <strong>${valueText('status', to)}</strong>
      </li>`,
    );
  }
  for (const [key, value] of Object.entries(rest)) {
    rows.push(html`<li><span class="key">${key}</span> ${valueText(key, value)}</li>`);
  }
  return rows.length > 0
    ? html`<ul class="change">
        ${rows}
      </ul>`
    : '';
}

function entityCell(entry: AuditEntry): SafeHtml {
  const base = ENTITY_PAGES[entry.entityType];
  const kind = entityLabel(entry.entityType);
  const label = html`${kind} <code title="${entry.entityId}">${shortId(entry.entityId)}</code>`;
  return base ? html`<a href="${safeUrl(base + seg(entry.entityId))}">${label}</a>` : label;
}

function actorCell(entry: AuditEntry): SafeHtml {
  const who = entry.actor.email ?? `${actorKind(entry.actor.type)} ${entry.actor.id}`;
  return html`<a href="${safeUrl(`/audit?actorId=${encodeURIComponent(entry.actor.id)}`)}" title="${entry.actor.id}">${who}</a>`;
}

/** The action in words, with its code (what the filter and the ops API take) beneath. */
function didCell(entry: AuditEntry): SafeHtml {
  const label = actionLabel(entry.action);
  return label ? html`${label}<br /><code class="muted">${entry.action}</code>` : html`<code>${entry.action}</code>`;
}

function auditColumns(sites: SiteDirectory): Array<Column<AuditEntry>> {
  return [
    { header: t('records.audit.col.when'), cell: (e) => formatTime(e.createdAt) },
    { header: t('records.audit.col.who'), cell: actorCell },
    { header: t('records.audit.col.did'), cell: didCell },
    { header: t('records.audit.col.to'), cell: entityCell },
    { header: t('records.col.site'), cell: (e) => siteLink(sites, e.siteId) },
    { header: t('records.audit.col.change'), cell: (e) => changeCell(e.metadata) },
  ];
}

/** The filter form: an operator (admins pick from the list), the action, the record and the site. */
function filterForm(filters: Record<string, string | undefined>, operators: OpsOperator[] | null, sites: SiteDirectory): SafeHtml {
  const selected = (on: boolean) => (on ? html` selected=""` : '');
  const actor = operators
    ? html`<select name="actorId">
        <option value="">${t('records.audit.anyone')}</option>
        ${operators.map((o) => html`<option value="${o.operatorId}" ${selected(o.operatorId === filters.actorId)}>${o.email}</option>`)}
      </select>`
    : html`<input type="text" name="actorId" size="20" value="${filters.actorId ?? ''}" placeholder="${t('records.audit.operatorId')}" />`;
  return html`<form method="get" action="/audit" class="filters">
    <label>${t('records.audit.operator')} ${actor}</label>
    <label
      >${t('records.audit.action')}
      <input type="text" name="action" list="audit-actions" size="22" value="${filters.action ?? ''}" placeholder="${KNOWN_ACTIONS[0]}" />
      <datalist id="audit-actions">
        ${KNOWN_ACTIONS.map((a) => html`<option value="${a}">${actionLabel(a) ?? ''}</option>`)}
      </datalist></label
    >
    <label
      >${t('records.audit.record')}
      <select name="entityType">
        <option value="">${t('records.audit.anyKind')}</option>
        ${ENTITY_TYPES.map((type) => html`<option value="${type}" ${selected(type === filters.entityType)}>${entityLabel(type)}</option>`)}
      </select></label
    >
    <label>${t('records.audit.recordId')} <input type="text" name="entityId" size="24" value="${filters.entityId ?? ''}" /></label>
    <label
      >${t('records.filter.site')}
      <select name="siteId">
        <option value="">${t('records.filter.allSites')}</option>
        ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${selected(s.siteId === filters.siteId)}>${s.slug}</option>`)}
      </select></label
    >
    <div class="filter-actions">
      <button type="submit" class="btn">${t('records.filter.submit')}</button>
      <a class="btn plain" href="/audit">${t('records.filter.clear')}</a>
    </div>
  </form>`;
}

/** `GET /audit`: who did what to which record and what changed, filterable by operator, action, record and site. */
export function auditRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/audit', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const filters: Record<string, string | undefined> = {};
    for (const name of FILTERS) filters[name] = ctx.query(name)?.trim() || undefined;
    const query = { ...filters, limit: '50', cursor: ctx.query('cursor') };
    const [[page, sites], operators] = await Promise.all([
      withSites(ctx.ops, ctx.ops.call('listAudit', { query })),
      // Only admins may list operators; a reviewer filters by an operator's id.
      ctx.isAdmin ? ctx.ops.call('listOperators').then((list) => list.data) : Promise.resolve(null),
    ]);
    const body = html`${filterForm(filters, operators, sites)}
    ${table({ columns: auditColumns(sites), rows: page.data, empty: t('records.audit.empty') })}
    ${nextPageLink('/audit', filters, page.nextCursor)} ${exportCsvLink('audit', filters)}`;
    ctx.render(t('records.audit.title'), 'audit', body);
  });

  return router;
}
