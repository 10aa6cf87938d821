import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { AuditEntry, OpsOperator } from '@kasa/contracts';
import { nextPageLink } from '../views/components.js';
import { formatTime, formatTry, shortId } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';
import { siteLink, withSites, type SiteDirectory } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

const FILTERS = ['actorId', 'action', 'entityType', 'entityId', 'siteId'] as const;

/** Where an audited record can be looked at in the console, if anywhere. */
const ENTITY_PAGES: Record<string, string> = {
  deposit_intent: '/intents/',
  withdrawal: '/withdrawals/',
  outbox_event: '/deliveries/',
  site: '/sites/',
  sender_return: '/returns/',
};

const ENTITY_TYPES: Array<[string, string]> = [
  ['deposit_intent', 'Deposit'],
  ['withdrawal', 'Withdrawal'],
  ['bank_transfer', 'Bank transfer'],
  ['sender_return', 'Return to sender'],
  ['outbox_event', 'Webhook event'],
  ['site', 'Site'],
  ['api_key', 'API key'],
  ['operator', 'Operator'],
  ['operator_token', 'Operator token'],
  ['receiving_account', 'Receiving account'],
];

/** Actions an operator filters by most; any other can still be typed. */
const KNOWN_ACTIONS = [
  'INTENT.APPROVED',
  'INTENT.REJECTED',
  'INTENT.PENDING_REVIEW',
  'INTENT.LATE_ARRIVAL',
  'INTENT.TRANSFER_ADDED',
  'INTENT.AUTO_CANCELLED',
  'WITHDRAWAL.APPROVED',
  'WITHDRAWAL.REJECTED',
  'WITHDRAWAL.SENT',
  'WITHDRAWAL.RETURNED',
  'BANK_TRANSFER.RECORDED',
  'BANK_TRANSFER.ASSIGNED',
  'BANK_TRANSFER.SET_ASIDE',
  'SENDER_RETURN.REQUESTED',
  'SENDER_RETURN.APPROVED',
  'SENDER_RETURN.SENT',
  'SENDER_RETURN.REJECTED',
  'EVENT.REPLAYED',
  'SITE.CREATED',
  'SITE.SETTINGS_CHANGED',
  'API_KEY.ISSUED',
  'API_KEY.REVOKED',
  'OPERATOR.CREATED',
  'OPERATOR.DISABLED',
  'OPERATOR.LOGGED_IN',
  'OPERATOR.SECOND_FACTOR_ENROLLED',
  'OPERATOR.SECOND_FACTOR_DISABLED',
  'OPERATOR.RECOVERY_CODE_USED',
];

const AMOUNT_KEYS = new Set(['amount', 'requestedAmount', 'receivedAmount', 'transferAmount', 'minAmount', 'maxAmount', 'approvedAmount']);

/** One value of a change as an operator reads it: amounts in lira, times in Türkiye time, nothing as "—". */
function valueText(key: string, value: unknown): SafeHtml | string {
  if (value === null || value === undefined || value === '') return html`<span class="muted">—</span>`;
  if (AMOUNT_KEYS.has(key) && typeof value === 'string' && /^-?\d+$/.test(value)) return formatTry(value);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return formatTime(value);
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
        <span class="key">status</span> ${valueText('status', from)} → <strong>${valueText('status', to)}</strong>
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
  const kind = ENTITY_TYPES.find(([type]) => type === entry.entityType)?.[1] ?? entry.entityType;
  const label = html`${kind} <code title="${entry.entityId}">${shortId(entry.entityId)}</code>`;
  return base ? html`<a href="${safeUrl(base + seg(entry.entityId))}">${label}</a>` : label;
}

function actorCell(entry: AuditEntry): SafeHtml {
  const who = entry.actor.email ?? `${entry.actor.type.toLowerCase()} ${entry.actor.id}`;
  return html`<a href="${safeUrl(`/audit?actorId=${encodeURIComponent(entry.actor.id)}`)}" title="${entry.actor.id}">${who}</a>`;
}

function auditColumns(sites: SiteDirectory): Array<Column<AuditEntry>> {
  return [
    { header: 'When', cell: (e) => formatTime(e.createdAt) },
    { header: 'Who', cell: actorCell },
    { header: 'Did', cell: (e) => html`<code>${e.action}</code>` },
    { header: 'To', cell: entityCell },
    { header: 'Site', cell: (e) => siteLink(sites, e.siteId) },
    { header: 'Change', cell: (e) => changeCell(e.metadata) },
  ];
}

/** The filter form: an operator (admins pick from the list), the action, the record and the site. */
function filterForm(filters: Record<string, string | undefined>, operators: OpsOperator[] | null, sites: SiteDirectory): SafeHtml {
  const selected = (on: boolean) => (on ? html` selected` : '');
  const actor = operators
    ? html`<select name="actorId">
        <option value="">Anyone</option>
        ${operators.map((o) => html`<option value="${o.operatorId}" ${selected(o.operatorId === filters.actorId)}>${o.email}</option>`)}
      </select>`
    : html`<input type="text" name="actorId" size="20" value="${filters.actorId ?? ''}" placeholder="operator id" />`;
  return html`<form method="get" action="/audit" class="filters">
    <label>Operator ${actor}</label>
    <label
      >Action
      <input type="text" name="action" list="audit-actions" size="22" value="${filters.action ?? ''}" placeholder="INTENT.APPROVED" />
      <datalist id="audit-actions">${KNOWN_ACTIONS.map((a) => html`<option value="${a}"></option>`)}</datalist></label
    >
    <label
      >Record
      <select name="entityType">
        <option value="">Any kind</option>
        ${ENTITY_TYPES.map(([type, label]) => html`<option value="${type}" ${selected(type === filters.entityType)}>${label}</option>`)}
      </select></label
    >
    <label>Record id <input type="text" name="entityId" size="24" value="${filters.entityId ?? ''}" /></label>
    <label
      >Site
      <select name="siteId">
        <option value="">All sites</option>
        ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${selected(s.siteId === filters.siteId)}>${s.slug}</option>`)}
      </select></label
    >
    <div class="filter-actions"><button type="submit" class="btn">Filter</button> <a class="btn plain" href="/audit">Clear</a></div>
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
    ${table({ columns: auditColumns(sites), rows: page.data, empty: 'No audit entries match.' })}
    ${nextPageLink('/audit', filters, page.nextCursor)} ${exportCsvLink('audit', filters)}`;
    ctx.render('Audit log', 'audit', body);
  });

  return router;
}
