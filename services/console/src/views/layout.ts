import type { SessionOperator } from '../session/session.js';
import { html, safeUrl, type SafeHtml, type SafeUrl } from './html.js';

/** The sections of the top navigation. */
export type Section =
  | 'dashboard'
  | 'review'
  | 'deposits'
  | 'withdrawals'
  | 'payouts'
  | 'transfers'
  | 'returns'
  | 'deliveries'
  | 'sites'
  | 'balances'
  | 'reconciliation'
  | 'audit'
  | 'search'
  // The operator's own account (two-factor authentication): reached from the e-mail in the header, not the navigation.
  | 'account';

const NAV: Array<[Section, SafeUrl, string]> = [
  ['dashboard', safeUrl('/'), 'Dashboard'],
  ['review', safeUrl('/review'), 'Review queue'],
  ['deposits', safeUrl('/deposits'), 'Deposits'],
  ['withdrawals', safeUrl('/withdrawals'), 'Withdrawals'],
  ['payouts', safeUrl('/payouts'), 'Payouts'],
  ['transfers', safeUrl('/bank-transfers'), 'Transfers'],
  ['returns', safeUrl('/returns'), 'Returns'],
  ['deliveries', safeUrl('/deliveries'), 'Deliveries'],
  ['sites', safeUrl('/sites'), 'Sites'],
  ['balances', safeUrl('/balances'), 'Balances'],
  ['reconciliation', safeUrl('/reconciliation'), 'Reconciliation'],
  ['audit', safeUrl('/audit'), 'Audit log'],
];

/** What every page's frame shows besides its body. */
export interface Frame {
  title: string;
  section?: Section;
  /** Null on the login page: no navigation, no logout. */
  operator: SessionOperator | null;
  csrf: string | null;
  /** A one-line confirmation of what the previous action did. */
  notice?: string | null;
  /** What the search box shows (the current search on the results page). */
  searched?: string;
}

function header(frame: Frame): SafeHtml {
  if (!frame.operator || !frame.csrf) return html`<header class="top"><span class="brand">Kasa Console</span></header>`;
  const op = frame.operator;
  // Two rows: the brand, the search box and who is logged in; then the sections, one line that scrolls
  // sideways on a narrow screen instead of wrapping.
  return html`<header class="top">
    <div class="bar">
      <a class="brand" href="/">Kasa Console</a>
      <form method="get" action="/search" class="search" role="search">
        <input
          type="search"
          name="q"
          value="${frame.searched ?? ''}"
          maxlength="140"
          placeholder="Reference, id, user, name or IBAN tail"
          aria-label="Search deposits, withdrawals, transfers and events"
        /><button type="submit" class="btn small">Search</button>
      </form>
      <div class="who">
        <a class="email" href="/account/2fa" title="Two-factor authentication">${op.email}</a>
        <span class="role role-${op.role.toLowerCase()}">${op.role.toLowerCase()}</span>
        <form method="post" action="/logout" class="inline">
          <input type="hidden" name="_csrf" value="${frame.csrf}" /><button type="submit" class="btn plain small">Log out</button>
        </form>
      </div>
    </div>
    <nav aria-label="Sections">
      ${NAV.map(
        ([key, href, label]) =>
          html`<a href="${href}" ${key === frame.section ? html` class="current" aria-current="page"` : ''}>${label}</a>`,
      )}
    </nav>
  </header>`;
}

/** A complete HTML document: head, header with navigation, the notice, and the page body. */
export function renderPage(frame: Frame, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${frame.title} · Kasa Console</title>
        <link rel="stylesheet" href="/assets/console.css" />
        <script src="/assets/console.js" defer></script>
      </head>
      <body>
        ${header(frame)}
        <main>
          <h1>${frame.title}</h1>
          ${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''} ${body}
        </main>
        ${frame.operator ? html`<footer class="page-foot">Times are Türkiye time (UTC+3); amounts are Turkish lira (₺).</footer>` : ''}
      </body>
    </html>`.value;
}
