import type { SessionOperator } from '../session/session.js';
import { html, safeUrl, type SafeHtml, type SafeUrl } from './html.js';

/** The sections of the top navigation. */
export type Section = 'review' | 'withdrawals' | 'transfers' | 'deliveries' | 'sites' | 'balances' | 'audit';

const NAV: Array<[Section, SafeUrl, string]> = [
  ['review', safeUrl('/review'), 'Review queue'],
  ['withdrawals', safeUrl('/withdrawals'), 'Withdrawals'],
  ['transfers', safeUrl('/bank-transfers'), 'Unmatched transfers'],
  ['deliveries', safeUrl('/deliveries'), 'Deliveries'],
  ['sites', safeUrl('/sites'), 'Sites & keys'],
  ['balances', safeUrl('/balances'), 'Balances'],
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
}

function header(frame: Frame): SafeHtml {
  if (!frame.operator || !frame.csrf) return html`<header class="top"><span class="brand">Kasa Console</span></header>`;
  const op = frame.operator;
  return html`<header class="top">
    <a class="brand" href="/review">Kasa Console</a>
    <nav aria-label="Sections">
      ${NAV.map(
        ([key, href, label]) =>
          html`<a href="${href}" ${key === frame.section ? html` class="current" aria-current="page"` : ''}>${label}</a>`,
      )}
    </nav>
    <div class="who">
      <span title="${op.operatorId}">${op.email}</span> <span class="role role-${op.role.toLowerCase()}">${op.role.toLowerCase()}</span>
      <form method="post" action="/logout" class="inline">
        <input type="hidden" name="_csrf" value="${frame.csrf}" /><button type="submit" class="btn plain small">Log out</button>
      </form>
    </div>
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
      </body>
    </html>`.value;
}
