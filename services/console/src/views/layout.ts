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
  | 'bank-accounts'
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
  ['bank-accounts', safeUrl('/receiving-accounts'), 'Bank accounts'],
  ['audit', safeUrl('/audit'), 'Audit log'],
];

/** Sections about the house's own money, which an operator limited to some sites may not open (403 `site_scope`). */
const HOUSE_WIDE = new Set<Section>(['payouts', 'reconciliation', 'bank-accounts']);

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
        ${op.scoped ? html`<span class="role" title="Limited to some sites: you see and act on their records only">some sites</span>` : ''}
        <form method="post" action="/logout" class="inline">
          <input type="hidden" name="_csrf" value="${frame.csrf}" /><button type="submit" class="btn plain small">Log out</button>
        </form>
      </div>
    </div>
    <nav aria-label="Sections">
      ${NAV.filter(([key]) => !(op.scoped && HOUSE_WIDE.has(key))).map(
        ([key, href, label]) =>
          html`<a href="${href}" ${key === frame.section ? html` class="current" aria-current="page"` : ''}
            >${label}${key === 'review' ? html` <span class="nav-count" data-live-count="review" hidden></span>` : ''}</a
          >`,
      )}
    </nav>
  </header>`;
}

/** The keys of the page script's shortcuts (console.client.js), as the help dialog lists them. */
const SHORTCUTS: Array<[string[], string]> = [
  [['j', '↓'], 'Next row of the list'],
  [['k', '↑'], 'Previous row'],
  [['Enter', 'o'], "Open the row's record"],
  [['a'], 'Approve the row (asks to confirm: Enter confirms, Esc cancels)'],
  [['r'], 'Reject the row: puts the cursor in the reason field; Enter sends, then confirm'],
  [['x'], 'Select the row for bulk approval (exact matches)'],
  [['/'], 'Search'],
  [['g', 'd'], 'Go to the dashboard'],
  [['g', 'q'], 'Go to the review queue'],
  [['?'], 'Show or hide this help'],
];

/**
 * What the page script needs on every operator page: the live-count announcer, the shortcut help and the confirm
 * dialog that keyboard actions and bulk approval use (a real dialog, so it is reached and answered by keyboard).
 */
function operatorDialogs(): SafeHtml {
  return html`<p class="visually-hidden" aria-live="polite" data-live-announce></p>
    <dialog id="shortcut-help" class="kb-dialog" aria-labelledby="shortcut-help-title">
      <h2 id="shortcut-help-title">Keyboard shortcuts</h2>
      <p class="muted">Off while you type in a field. Every approval still asks to confirm.</p>
      <dl class="shortcuts">
        ${SHORTCUTS.map(
          ([keys, what]) =>
            html`<dt>${keys.map((key, n) => html`${n > 0 ? (keys[0] === 'g' ? ' then ' : ' or ') : ''}<kbd>${key}</kbd>`)}</dt>
              <dd>${what}</dd>`,
        )}
      </dl>
      <form method="dialog"><button type="submit" class="btn">Close</button></form>
    </dialog>
    <dialog id="confirm-dialog" class="kb-dialog" aria-labelledby="confirm-dialog-title" aria-describedby="confirm-dialog-message">
      <h2 id="confirm-dialog-title">Please confirm</h2>
      <p id="confirm-dialog-message"></p>
      <form method="dialog" class="dialog-actions">
        <button type="submit" value="confirm" class="btn primary" data-confirm-yes>Confirm</button>
        <button type="submit" value="cancel" class="btn">Cancel</button>
      </form>
    </dialog>`;
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
        ${
          frame.operator
            ? html`<footer class="page-foot">
                  Times are Türkiye time (UTC+3); amounts are Turkish lira (₺). Press <kbd>?</kbd> for keyboard shortcuts.
                </footer>
                ${operatorDialogs()}`
            : ''
        }
      </body>
    </html>`.value;
}
