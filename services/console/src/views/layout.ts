import { currentLocale, currentTimeZone, t, th, type MessageKey } from '../i18n/index.js';
import { MESSAGES } from '../i18n/index.js';
import type { SessionOperator } from '../session/session.js';
import { html, localUrl, safeUrl, trustedHtml, type SafeHtml, type SafeUrl } from './html.js';
import { SECTIONS, type NavSection, type Section } from './sections.js';

/** The navigation's links, in order (sections.ts). */
const NAV: Array<[NavSection, SafeUrl]> = SECTIONS.flatMap((section) =>
  'href' in section ? [[section.name, safeUrl(section.href)] satisfies [NavSection, SafeUrl]] : [],
);
const HOUSE_WIDE = new Set<Section>(SECTIONS.filter((section) => 'houseWide' in section).map((section) => section.name));
const ADMIN_ONLY = new Set<Section>(SECTIONS.filter((section) => 'adminOnly' in section).map((section) => section.name));

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
  /** The page's own path and query, where the language switch returns to ('/' when unknown). */
  here?: string;
}

/** The switch to the other language, on every page: it remembers the choice in this browser. */
function languageSwitch(frame: Frame): SafeHtml {
  const other = currentLocale() === 'tr' ? 'en' : 'tr';
  return html`<a
    class="lang-switch"
    href="${localUrl`/language?to=${other}&back=${frame.here ?? '/'}`}"
    lang="${other}"
    hreflang="${other}"
    title="${t('common.language.switchTitle')}"
    >${t('common.language.switch')}</a
  >`;
}

function header(frame: Frame): SafeHtml {
  if (!frame.operator || !frame.csrf)
    return html`<header class="top">
      <div class="bar"><span class="brand">${t('common.brand')}</span>${languageSwitch(frame)}</div>
    </header>`;
  const op = frame.operator;
  // Two rows: the brand, the search box and who is logged in; then the sections, one line that scrolls
  // sideways on a narrow screen instead of wrapping.
  return html`<header class="top">
    <div class="bar">
      <a class="brand" href="/">${t('common.brand')}</a>
      <form method="get" action="/search" class="search" role="search">
        <input
          type="search"
          name="q"
          value="${frame.searched ?? ''}"
          maxlength="140"
          placeholder="${t('common.search.placeholder')}"
          aria-label="${t('common.search.label')}"
        /><button type="submit" class="btn small">${t('common.search.button')}</button>
      </form>
      <div class="who">
        <a class="email" href="/account/2fa" title="${t('common.account.title')}">${op.email}</a>
        <span class="role role-${op.role.toLowerCase()}">${t(`common.role.${op.role}`)}</span>
        ${op.scoped ? html`<span class="role" title="${t('common.scoped.title')}">${t('common.scoped')}</span>` : ''}
        ${languageSwitch(frame)}
        <form method="post" action="/logout" class="inline">
          <input type="hidden" name="_csrf" value="${frame.csrf}" /><button type="submit" class="btn plain small">
            ${t('common.logout')}
          </button>
        </form>
      </div>
    </div>
    <nav aria-label="${t('common.sections')}">
      ${NAV.filter(([key]) => !(op.scoped && HOUSE_WIDE.has(key)) && !(op.role !== 'ADMIN' && ADMIN_ONLY.has(key))).map(
        ([key, href]) =>
          html`<a href="${href}" ${key === frame.section ? html` class="current" aria-current="page"` : ''}
            >${t(`common.nav.${key}`)}${key === 'review' ? html` <span class="nav-count" data-live-count="review" hidden></span>` : ''}</a
          >`,
      )}
    </nav>
  </header>`;
}

/** The keys of the page script's shortcuts (console.client.js), as the help dialog lists them. */
const SHORTCUTS: Array<[string[], MessageKey]> = [
  [['j', '↓'], 'common.shortcuts.next'],
  [['k', '↑'], 'common.shortcuts.previous'],
  [['Enter', 'o'], 'common.shortcuts.open'],
  [['a'], 'common.shortcuts.approve'],
  [['r'], 'common.shortcuts.reject'],
  [['x'], 'common.shortcuts.select'],
  [['/'], 'common.shortcuts.search'],
  [['g', 'd'], 'common.shortcuts.dashboard'],
  [['g', 'q'], 'common.shortcuts.review'],
  [['?'], 'common.shortcuts.help'],
];

/**
 * What the page script needs on every operator page: the live-count announcer, the shortcut help and the confirm
 * dialog that keyboard actions and bulk approval use (a real dialog, so it is reached and answered by keyboard).
 */
function operatorDialogs(): SafeHtml {
  return html`<p class="visually-hidden" aria-live="polite" data-live-announce></p>
    <dialog id="shortcut-help" class="kb-dialog" aria-labelledby="shortcut-help-title">
      <h2 id="shortcut-help-title">${t('common.shortcuts.title')}</h2>
      <p class="muted">${t('common.shortcuts.lead')}</p>
      <dl class="shortcuts">
        ${SHORTCUTS.map(
          ([keys, what]) =>
            html`<dt>
                ${keys.map(
                  (key, n) => html`${n > 0 ? t(keys[0] === 'g' ? 'common.shortcuts.then' : 'common.shortcuts.or') : ''}<kbd>${key}</kbd>`,
                )}
              </dt>
              <dd>${t(what)}</dd>`,
        )}
      </dl>
      <form method="dialog"><button type="submit" class="btn">${t('common.close')}</button></form>
    </dialog>
    <dialog id="confirm-dialog" class="kb-dialog" aria-labelledby="confirm-dialog-title" aria-describedby="confirm-dialog-message">
      <h2 id="confirm-dialog-title">${t('common.confirm.title')}</h2>
      <p id="confirm-dialog-message"></p>
      <form method="dialog" class="dialog-actions">
        <button type="submit" value="confirm" class="btn primary" data-confirm-yes>${t('common.confirm.yes')}</button>
        <button type="submit" value="cancel" class="btn">${t('common.cancel')}</button>
      </form>
    </dialog>`;
}

/** The desk's zone as operators say it: "Türkiye (UTC+3)" for Europe/Istanbul, else its IANA name and offset. */
function zoneName(): string {
  const zone = currentTimeZone();
  const offset =
    new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value ?? '';
  const place = zone === 'Europe/Istanbul' ? 'Türkiye' : zone;
  return `${place} (${offset.replace('GMT', 'UTC')})`;
}

/**
 * The page script's words (console.client.js) in the page's language: a JSON data block, which the script reads and
 * the content security policy allows since it is never run.
 */
function clientMessages(): SafeHtml {
  const messages = MESSAGES[currentLocale()];
  const own = Object.fromEntries(Object.entries(messages).filter(([key]) => key.startsWith('client.')));
  // JSON inside a script element: "<" is written as \u003c so no text can close the element.
  const json = JSON.stringify(own).replace(/</g, '\\u003c');
  return html`<script type="application/json" id="console-messages">
    ${trustedHtml(json)}
  </script>`;
}

/** A complete HTML document: head, header with navigation, the notice, and the page body. */
export function renderPage(frame: Frame, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="${currentLocale()}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${t('common.titleSuffix', { title: frame.title })}</title>
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
                  ${t('common.footer', { zone: zoneName() })} ${th('common.footer.shortcuts', { key: html`<kbd>?</kbd>` })}
                </footer>
                ${operatorDialogs()}${clientMessages()}`
            : ''
        }
      </body>
    </html>`.value;
}
