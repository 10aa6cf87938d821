/**
 * What the deposit and withdrawal lists share: their opening columns, the waiting-time cell of the queues,
 * and the filter form (site, status, time range, amount range, user, reference, order) read into the ops
 * API's list query.
 */
import type { OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { seg, waitedFor, waitedLongerThan, withQuery, type Query } from '@kasa/ops-client';
import { statusBadge } from '../views/components.js';
import { formatTime, formatTry, liraInputValue, maskIban, readLira } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import type { Column } from '../views/table.js';
import { siteLink, type SiteDirectory } from './site-names.js';

/** The partner's end user of a record, as the partner sent them: the label (a name) and the id, each its own column. */
export interface EndUser {
  externalUserId: string;
  externalUserLabel: string | null;
}

/**
 * A record's end user in two columns, `User` (the partner's label, — without one) and `User id`, so a list can be
 * read down either; `userOf` null shows — in both (an event whose record is gone).
 */
export function userColumns<T>(userOf: (row: T) => EndUser | null | undefined): Array<Column<T>> {
  const none = html`<span class="muted">—</span>`;
  return [
    { header: 'User', cell: (r) => userOf(r)?.externalUserLabel ?? none },
    { header: 'User id', cell: (r) => (userOf(r) ? html`<code>${userOf(r)?.externalUserId}</code>` : none) },
  ];
}

/** The columns a deposit's and a withdrawal's rows open with. */
export function partnerColumns<T extends OpsIntent | OpsWithdrawal>(sites: SiteDirectory, link: (row: T) => SafeHtml): Array<Column<T>> {
  return [
    { header: 'Created', cell: (r) => formatTime(r.createdAt) },
    { header: 'Reference', cell: link },
    { header: 'Site', cellClass: 'nowrap', cell: (r) => siteLink(sites, r.siteId) },
    ...userColumns<T>((r) => r),
  ];
}

export const depositColumns = (sites: SiteDirectory) =>
  partnerColumns<OpsIntent>(sites, (i) => html`<a href="/intents/${seg(i.intentId)}"><code>${i.referenceNo}</code></a>`);

/** A withdrawal's row without its actions: amount, who is paid (IBAN masked) and status. */
export function withdrawalColumns(sites: SiteDirectory): Array<Column<OpsWithdrawal>> {
  return [
    ...partnerColumns<OpsWithdrawal>(sites, (w) => html`<a href="/withdrawals/${seg(w.withdrawalId)}"><code>${w.referenceNo}</code></a>`),
    { header: 'Amount', class: 'num', cell: (w) => formatTry(w.amount) },
    { header: 'To', cell: (w) => html`${w.targetHolderName}<br /><span class="muted">${maskIban(w.targetIban)}</span>` },
    { header: 'Status', cell: (w) => statusBadge(w.status) },
  ];
}

/** How long a queue item has waited, marked past the limit (REVIEW_WAIT_WARN_MINUTES). */
export function waitingCell(since: string | null, now: Date, warnMinutes: number): SafeHtml {
  if (!since) return html`<span class="muted">—</span>`;
  const late = waitedLongerThan(since, warnMinutes, now);
  return html`<span class="waiting${late ? ' over' : ''}" title="since ${formatTime(since)}${late ? `, over ${warnMinutes} min` : ''}"
    >${waitedFor(since, now)}</span
  >`;
}

/** The filters a deposit or withdrawal list was asked for, as typed (strings) and as the ops API's query. */
export interface RecordFilters {
  typed: Record<string, string>;
  api: Query;
}

const TYPED = ['siteId', 'status', 'from', 'to', 'min', 'max', 'user', 'reference', 'order'] as const;

/** `2026-11-25` as the start of that day in Türkiye (UTC+3 all year), as an ISO instant; `nextDay` the day after's. */
function dayStart(field: string, typed: string, nextDay = false): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(typed) || Number.isNaN(Date.parse(`${typed}T00:00:00+03:00`))) {
    throw AppError.validation([{ field, message: 'must be a date (YYYY-MM-DD)' }], 'The list filters are not valid.');
  }
  const start = new Date(`${typed}T00:00:00+03:00`);
  if (nextDay) start.setUTCDate(start.getUTCDate() + 1);
  return start.toISOString();
}

function kurus(field: string, typed: string): string {
  const read = readLira(typed);
  if ('problem' in read) throw AppError.validation([{ field, message: read.problem }], 'The list filters are not valid.');
  return read.minor;
}

/**
 * The list filters from the page's query: dates are whole days in Türkiye time (`to` inclusive), amounts are
 * lira as operators type them (read by @kasa/money, as everywhere), the reference as the user reads it out.
 * Anything unreadable is a 400 naming the field; the ledger checks the rest.
 */
export function readRecordFilters(query: (name: string) => string | undefined, statuses: readonly string[]): RecordFilters {
  const typed: Record<string, string> = {};
  for (const name of TYPED) {
    const value = query(name)?.trim();
    if (value) typed[name] = value;
  }
  if (typed.status && !statuses.includes(typed.status)) delete typed.status;
  if (typed.order !== 'oldest') delete typed.order;
  return {
    typed,
    api: {
      siteId: typed.siteId,
      status: typed.status,
      createdFrom: typed.from ? dayStart('from', typed.from) : undefined,
      createdTo: typed.to ? dayStart('to', typed.to, true) : undefined,
      amountMin: typed.min ? kurus('min', typed.min) : undefined,
      amountMax: typed.max ? kurus('max', typed.max) : undefined,
      externalUserId: typed.user,
      referenceNo: typed.reference,
      order: typed.order,
    },
  };
}

/** The filter form above a list; `hidden` carries what the page keeps elsewhere (a status tab). */
export function recordFilterForm(
  path: string,
  sites: SiteDirectory,
  filters: RecordFilters,
  options: { statuses?: readonly string[]; hidden?: Record<string, string> } = {},
): SafeHtml {
  const t = filters.typed;
  const selected = (on: boolean) => (on ? html` selected` : '');
  const clear = safeUrl(withQuery(path, options.hidden?.status ? { status: options.hidden.status } : {}));
  return html`<form method="get" action="${safeUrl(path)}" class="filters record-filters">
    ${Object.entries(options.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    <label
      >Site
      <select name="siteId">
        <option value="">All sites</option>
        ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${selected(s.siteId === t.siteId)}>${s.slug}</option>`)}
      </select></label
    >
    ${
      options.statuses
        ? html`<label
            >Status
            <select name="status">
              <option value="">Any</option>
              ${options.statuses.map(
                (s) => html`<option value="${s}" ${selected(s === t.status)}>${s.replace(/_/g, ' ').toLowerCase()}</option>`,
              )}
            </select></label
          >`
        : ''
    }
    <label>From <input type="date" name="from" value="${t.from ?? ''}" /></label>
    <label>To <input type="date" name="to" value="${t.to ?? ''}" /></label>
    <label
      >Min ₺
      <input
        type="text"
        name="min"
        inputmode="decimal"
        size="9"
        value="${t.min ?? ''}"
        placeholder="${liraInputValue('10000')}"
        aria-label="Smallest amount in lira (TRY)"
    /></label>
    <label
      >Max ₺
      <input
        type="text"
        name="max"
        inputmode="decimal"
        size="9"
        value="${t.max ?? ''}"
        placeholder="${liraInputValue('500000')}"
        aria-label="Largest amount in lira (TRY)"
    /></label>
    <label>User id <input type="text" name="user" size="12" maxlength="64" value="${t.user ?? ''}" /></label>
    <label>Reference <input type="text" name="reference" size="12" maxlength="32" value="${t.reference ?? ''}" /></label>
    <label
      >Order
      <select name="order">
        <option value="">Newest first</option>
        <option value="oldest" ${selected(t.order === 'oldest')}>Oldest first</option>
      </select></label
    >
    <div class="filter-actions">
      <button type="submit" class="btn">Filter</button>
      <a class="btn plain" href="${clear}">Clear</a>
    </div>
  </form>`;
}
