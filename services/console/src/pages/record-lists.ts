/**
 * What the deposit and withdrawal lists share: their opening columns, the waiting-time cell of the queues,
 * and the filter form (site, status, time range, amount range, user, reference, order) read into the ops
 * API's list query.
 */
import type { OpsIntent, OpsWithdrawal } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { seg, waitedLongerThan, waitedParts, withQuery, type Query } from '@kasa/ops-client';
import { t } from '../i18n/index.js';
import { statusBadge, statusLabel } from '../views/components.js';
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
    { header: t('records.col.user'), cell: (r) => userOf(r)?.externalUserLabel ?? none },
    { header: t('records.col.userId'), cell: (r) => (userOf(r) ? html`<code>${userOf(r)?.externalUserId}</code>` : none) },
  ];
}

/** The columns a deposit's and a withdrawal's rows open with. */
export function partnerColumns<T extends OpsIntent | OpsWithdrawal>(sites: SiteDirectory, link: (row: T) => SafeHtml): Array<Column<T>> {
  return [
    { header: t('records.col.created'), cell: (r) => formatTime(r.createdAt) },
    { header: t('records.col.reference'), cell: link },
    { header: t('records.col.site'), cellClass: 'nowrap', cell: (r) => siteLink(sites, r.siteId) },
    ...userColumns<T>((r) => r),
  ];
}

export const depositColumns = (sites: SiteDirectory) =>
  partnerColumns<OpsIntent>(sites, (i) => html`<a href="/intents/${seg(i.intentId)}"><code>${i.referenceNo}</code></a>`);

/** A withdrawal's row without its actions: amount, who is paid (IBAN masked) and status. */
export function withdrawalColumns(sites: SiteDirectory): Array<Column<OpsWithdrawal>> {
  return [
    ...partnerColumns<OpsWithdrawal>(sites, (w) => html`<a href="/withdrawals/${seg(w.withdrawalId)}"><code>${w.referenceNo}</code></a>`),
    { header: t('records.col.amount'), class: 'num', cell: (w) => formatTry(w.amount) },
    { header: t('records.col.to'), cell: (w) => html`${w.targetHolderName}<br /><span class="muted">${maskIban(w.targetIban)}</span>` },
    { header: t('records.col.status'), cell: (w) => statusBadge(w.status) },
  ];
}

/** How long since `since` at `now`, in its two largest units: "2h 5m" ("2 sa 5 dk"), "45s" under a minute. */
export function waitedText(since: string | null | undefined, now: Date): string {
  const waited = waitedParts(since, now);
  if (!waited) return '';
  const { days: d, hours: h, minutes: m, seconds: s } = waited;
  if (d > 0) return t('records.waited.days', { d, h });
  if (h > 0) return t('records.waited.hours', { h, m });
  return m > 0 ? t('records.waited.minutes', { m }) : t('records.waited.seconds', { s });
}

/** How long a queue item has waited, marked past the limit (REVIEW_WAIT_WARN_MINUTES). */
export function waitingCell(since: string | null, now: Date, warnMinutes: number): SafeHtml {
  if (!since) return html`<span class="muted">—</span>`;
  const late = waitedLongerThan(since, warnMinutes, now);
  const title = late
    ? t('records.waiting.over', { time: formatTime(since), minutes: warnMinutes })
    : t('records.waiting.since', { time: formatTime(since) });
  return html`<span class="waiting${late ? ' over' : ''}" title="${title}">${waitedText(since, now)}</span>`;
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
    throw AppError.validation([{ field, message: t('records.filter.date') }], t('records.filter.invalid'));
  }
  const start = new Date(`${typed}T00:00:00+03:00`);
  if (nextDay) start.setUTCDate(start.getUTCDate() + 1);
  return start.toISOString();
}

function kurus(field: string, typed: string): string {
  const read = readLira(typed);
  if ('problem' in read) throw AppError.validation([{ field, message: read.problem }], t('records.filter.invalid'));
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
  const typed = filters.typed;
  const selected = (on: boolean) => (on ? html` selected=""` : '');
  const clear = safeUrl(withQuery(path, options.hidden?.status ? { status: options.hidden.status } : {}));
  return html`<form method="get" action="${safeUrl(path)}" class="filters record-filters">
    ${Object.entries(options.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    <label
      >${t('records.filter.site')}
      <select name="siteId">
        <option value="">${t('records.filter.allSites')}</option>
        ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${selected(s.siteId === typed.siteId)}>${s.slug}</option>`)}
      </select></label
    >
    ${
      options.statuses
        ? html`<label
            >${t('records.filter.status')}
            <select name="status">
              <option value="">${t('records.filter.anyStatus')}</option>
              ${options.statuses.map((s) => html`<option value="${s}" ${selected(s === typed.status)}>${statusLabel(s)}</option>`)}
            </select></label
          >`
        : ''
    }
    <label>${t('records.filter.from')} <input type="date" name="from" value="${typed.from ?? ''}" /></label>
    <label>${t('records.filter.to')} <input type="date" name="to" value="${typed.to ?? ''}" /></label>
    <label
      >${t('records.filter.min')}
      <input
        type="text"
        name="min"
        inputmode="decimal"
        size="9"
        value="${typed.min ?? ''}"
        placeholder="${liraInputValue('10000')}"
        aria-label="${t('records.filter.minLabel')}"
    /></label>
    <label
      >${t('records.filter.max')}
      <input
        type="text"
        name="max"
        inputmode="decimal"
        size="9"
        value="${typed.max ?? ''}"
        placeholder="${liraInputValue('500000')}"
        aria-label="${t('records.filter.maxLabel')}"
    /></label>
    <label>${t('records.filter.user')} <input type="text" name="user" size="12" maxlength="64" value="${typed.user ?? ''}" /></label>
    <label
      >${t('records.filter.reference')} <input type="text" name="reference" size="12" maxlength="32" value="${typed.reference ?? ''}"
    /></label>
    <label
      >${t('records.filter.order')}
      <select name="order">
        <option value="">${t('records.filter.newest')}</option>
        <option value="oldest" ${selected(typed.order === 'oldest')}>${t('records.filter.oldest')}</option>
      </select></label
    >
    <div class="filter-actions">
      <button type="submit" class="btn">${t('records.filter.submit')}</button>
      <a class="btn plain" href="${clear}">${t('records.filter.clear')}</a>
    </div>
  </form>`;
}
