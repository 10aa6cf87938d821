/** Small pieces the pages share: action forms, status badges, list paging and tabs. */
import { withQuery, type Query } from '@kasa/ops-client';
import { MESSAGES, t, type MessageKey } from '../i18n/index.js';
import { html, safeUrl, type HtmlValue, type SafeHtml } from './html.js';

/** What a form needs to post back safely: the session's CSRF token and the page to return to. */
export interface FormContext {
  csrf: string;
  /** Path and query of the page the form is on; success and error pages lead back there. */
  back: string;
}

export interface ActionFormOptions {
  /** A path on the console; checked with safeUrl, so anything else throws. */
  action: string;
  label: string;
  tone?: 'primary' | 'danger' | 'plain';
  /** Asked in a confirm dialog when JavaScript runs; the form works without it. */
  confirm?: string;
  fields?: HtmlValue;
}

/** A POST form with the CSRF and return fields, optional inputs, and one button. */
export function actionForm(ctx: FormContext, options: ActionFormOptions): SafeHtml {
  return html`<form
    method="post"
    action="${safeUrl(options.action)}"
    class="inline action"
    ${options.confirm ? html` data-confirm="${options.confirm}"` : ''}
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input
      type="hidden"
      name="_back"
      value="${ctx.back}"
    />${options.fields ?? ''}<button type="submit" class="btn ${options.tone ?? 'plain'}">${options.label}</button>
  </form>`;
}

const TONE: Record<string, string> = {
  PENDING_REVIEW: 'warn',
  LATE_ARRIVAL: 'alert',
  APPROVED: 'ok',
  APPLIED: 'ok',
  SENT: 'ok',
  DELIVERED: 'ok',
  MATCHED: 'ok',
  ASSIGNED: 'ok',
  REJECTED: 'muted',
  AUTO_CANCELLED: 'muted',
  RETURNED: 'alert',
  UNMATCHED: 'warn',
  SET_ASIDE: 'muted',
  RETURNING: 'warn',
  PENDING: 'info',
  RESERVED: 'info',
  DEAD: 'danger',
};

/**
 * A record's status as operators read it (messages/components.ts): every status of the contracts has its words; one
 * the console does not know yet shows as the ledger wrote it, in lower case.
 */
export function statusLabel(status: string): string {
  const key = `components.status.${status}`;
  return Object.prototype.hasOwnProperty.call(MESSAGES.en, key) ? t(key as MessageKey) : status.replace(/_/g, ' ').toLowerCase();
}

export function statusBadge(status: string): SafeHtml {
  return html`<span class="badge ${TONE[status] ?? 'muted'}">${statusLabel(status)}</span>`;
}

/** A sandbox record's TEST badge (simulated money, docs/sandbox.md), as a site's link carries it; nothing for live money. */
export function testBadge(livemode: boolean): SafeHtml | string {
  return livemode ? '' : html` <span class="badge info" title="${t('components.test.title')}">${t('components.test')}</span>`;
}

/** "Next page" carrying the ledger's cursor and every current filter (the cursor is bound to them). */
export function nextPageLink(path: string, query: Query, nextCursor: string | null, cursorParam = 'cursor'): SafeHtml {
  if (!nextCursor) return html`<p class="pager muted">${t('components.pager.end')}</p>`;
  return html`<p class="pager">
    <a class="btn plain" rel="next" href="${safeUrl(withQuery(path, { ...query, [cursorParam]: nextCursor }))}"
      >${t('components.pager.next')}</a
    >
  </p>`;
}

/** The tab value `requested` names, or `fallback` when it names none of `options`. */
export function currentTab(options: Array<[string, string]>, requested: string | undefined, fallback: string): string {
  return options.find(([value]) => value === requested)?.[0] ?? fallback;
}

/** Status tabs above a list; each is a plain link, so the list is bookmarkable. */
export function tabs(path: string, current: string, options: Array<[string, string]>, extra: Query = {}): SafeHtml {
  return html`<nav class="tabs" aria-label="${t('components.tabs.label')}">
    ${options.map(
      ([value, label]) =>
        html`<a
          href="${safeUrl(withQuery(path, { ...extra, status: value }))}"
          ${value === current ? html` class="current" aria-current="true"` : ''}
          >${label}</a
        >`,
    )}
  </nav>`;
}

/** A definition list of label/value pairs for detail pages. */
export function facts(rows: Array<[string, HtmlValue]>): SafeHtml {
  return html`<dl class="facts">
    ${rows.map(
      ([label, value]) =>
        html`<dt>${label}</dt>
          <dd>${value === null || value === undefined || value === '' ? '—' : value}</dd>`,
    )}
  </dl>`;
}

/**
 * Compact JSON for metadata and payloads, escaped like any text. It scrolls inside its box (a phone is narrower than
 * a payload's lines), so it takes the keyboard focus: a keyboard alone can scroll it.
 */
export function jsonBlock(value: unknown): SafeHtml {
  return html`<pre class="json" tabindex="0">${JSON.stringify(value, null, 2)}</pre>`;
}
