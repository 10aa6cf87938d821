/** Server-side HTML of the hosted deposit page: complete without JavaScript; the script only enhances. */
import type { DepositPageView } from '@kasa/contracts';
import { html, trySafeUrl, type SafeHtml, type SafeUrl } from '@kasa/html';
import { formatTry, liraInputValue } from '@kasa/money';
import { MESSAGES, type Language, type Messages, type OutcomeStatus } from './i18n.js';

/**
 * Where the page's script polls and refreshes from, its assets, the page in the other language, the confirmation
 * and (a test deposit's only) the simulated transfer.
 */
export interface DepositPageUrls {
  status: SafeUrl;
  page: SafeUrl;
  script: SafeUrl;
  stylesheet: SafeUrl;
  otherLanguage: SafeUrl;
  confirm: SafeUrl;
  simulate: SafeUrl;
}

export function groupIban(iban: string): string {
  return iban.replace(/(.{4})/g, '$1 ').trim();
}

/** `m:ss`, or `h:mm:ss` from an hour up; the page's script counts down in the same form. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}

/** The IBAN in groups of four, each group a unit that never breaks across lines. */
function ibanGroups(iban: string): SafeHtml {
  const groups = groupIban(iban).split(' ');
  return html`${groups.map((group) => html`<span class="group">${group}</span> `)}`;
}

function copyRow(t: Messages, label: string, value: SafeHtml | string, copyValue: string, id: string, extraClass = ''): SafeHtml {
  return html`<div class="row ${extraClass}">
    <dt>${label}</dt>
    <dd>
      <span id="${id}" class="value">${value}</span>
      <button type="button" class="copy" data-copy="${copyValue}" aria-label="${t.copyLabel(label)}">${t.copy}</button>
    </dd>
  </div>`;
}

function paymentDetails(
  t: Messages,
  lang: Language,
  view: DepositPageView,
  bank: NonNullable<DepositPageView['bankAccount']>,
  urls: DepositPageUrls,
): SafeHtml {
  const amount = formatTry(view.requestedAmount);
  const deadline = new Date(view.expiresAt).toLocaleString(lang === 'en' ? 'en-GB' : 'tr-TR', {
    timeZone: 'Europe/Istanbul',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  // Once the user has said it is sent, that comes first: what happens next; the details stay below.
  return html`${view.userConfirmedAt ? confirmedPanel(t) : ''}
    <p class="lead">${t.lead.before} <strong>${amount}</strong> ${t.lead.after}</p>
    <dl>
      ${copyRow(t, t.amount, amount, liraInputValue(view.requestedAmount), 'amount', 'key')}
      ${copyRow(t, t.reference, view.referenceNo, view.referenceNo, 'reference', 'key')}
      ${copyRow(t, t.iban, ibanGroups(bank.iban), bank.iban, 'iban')} ${copyRow(t, t.holder, bank.holderName, bank.holderName, 'holder')}
      ${copyRow(t, t.bank, bank.bankName, bank.bankName, 'bank')}
    </dl>
    <p class="warn">${t.warn}</p>
    <div class="deadline">
      <p class="countdown"><strong id="countdown">${formatCountdown(view.secondsLeft)}</strong> ${t.left}</p>
      <p>${t.deadline} <time id="expires" datetime="${view.expiresAt}">${deadline}</time> (${t.timeZone})</p>
    </div>
    ${view.userConfirmedAt ? '' : confirmForm(t, urls.confirm)} ${view.livemode ? '' : simulateForm(t, urls.simulate)}`;
}

/**
 * A test deposit's stand-in for the bank: the ledger's simulator sends the money with its defaults, and the page
 * comes back in its new state. Never rendered for a live deposit (and the ledger refuses one anyway).
 */
function simulateForm(t: Messages, simulateUrl: SafeUrl): SafeHtml {
  return html`<form method="post" action="${simulateUrl}" class="simulate">
    <button type="submit" id="simulate">${t.simulateButton}</button>
    <p class="hint">${t.simulateHint}</p>
  </form>`;
}

/** Says on every state of a test deposit that nothing real happens here. */
function testModeBanner(t: Messages): SafeHtml {
  return html`<p id="test-mode" class="test-mode" role="note">${t.testMode}</p>`;
}

/** "I have sent the transfer": a plain form, so it works without JavaScript. */
function confirmForm(t: Messages, confirmUrl: SafeUrl): SafeHtml {
  return html`<form method="post" action="${confirmUrl}" class="confirm">
    <button type="submit" id="confirm">${t.confirmButton}</button>
    <p class="hint">${t.confirmHint}</p>
  </form>`;
}

/** What happens next once the user has pressed it; the script moves focus here after an in-place post. */
function confirmedPanel(t: Messages): SafeHtml {
  return html`<section id="confirmed" class="state state-pending" tabindex="-1" aria-labelledby="confirmed-title">
    <div class="state-head">
      <span class="state-icon" aria-hidden="true">✓</span>
      <h2 id="confirmed-title">${t.confirmedTitle}</h2>
    </div>
    <p>${t.confirmedBody}</p>
  </section>`;
}

/** The link back to the partner's site, when the partner gave one (already checked on create). */
function backLink(t: Messages, view: DepositPageView, primary: boolean): SafeHtml | string {
  const href = view.returnUrl ? trySafeUrl(view.returnUrl) : null;
  if (!href) return '';
  return html`<p class="back${primary ? ' back-primary' : ''}">
    <a id="back" href="${href}" rel="noreferrer">${t.backTo(view.siteName)}</a>
  </p>`;
}

const OUTCOME_LOOK: Record<OutcomeStatus, { tone: string; icon: string }> = {
  PENDING_REVIEW: { tone: 'pending', icon: '…' },
  LATE_ARRIVAL: { tone: 'pending', icon: '…' },
  APPROVED: { tone: 'approved', icon: '✓' },
  REJECTED: { tone: 'rejected', icon: '✕' },
  AUTO_CANCELLED: { tone: 'expired', icon: '!' },
};

function isOutcome(status: string): status is OutcomeStatus {
  return Object.hasOwn(OUTCOME_LOOK, status);
}

/**
 * Received, approved (with the credited amount), rejected or expired. A rejection shows only the catalogue's
 * words: the one the operator picked for the user (`rejectedUserReason`), else the general one; the
 * operator's free-text reason is the partner's and never reaches the page.
 */
function outcome(t: Messages, view: DepositPageView, status: OutcomeStatus): SafeHtml {
  const info = t.states[status];
  const look = OUTCOME_LOOK[status];
  const credited =
    status === 'APPROVED' && view.creditedAmount !== null
      ? html`<p class="credited">
          ${t.credited} <strong id="credited">${formatTry(view.creditedAmount)}</strong>
          ${view.creditedAmount === view.requestedAmount ? '' : html`<span class="requested">${t.requested(formatTry(view.requestedAmount))}</span>`}
        </p>`
      : '';
  return html`<section class="state state-${look.tone}" aria-labelledby="state-title">
      <div class="state-head">
        <span class="state-icon" aria-hidden="true">${look.icon}</span>
        <h2 id="state-title">${info.title}</h2>
      </div>
      ${credited}
      <p id="state-body">${status === 'REJECTED' && view.rejectedUserReason ? t.rejectionReasons[view.rejectedUserReason] : info.body}</p>
      ${info.next ? html`<p class="next">${info.next}</p>` : ''}
    </section>
    <p class="reference">${t.referenceOnOutcome} <strong id="reference">${view.referenceNo}</strong></p>`;
}

/** What the live region says when the script brings this state in without a reload. */
function announcement(t: Messages, view: DepositPageView): string {
  if (!isOutcome(view.status)) return '';
  if (view.status === 'APPROVED' && view.creditedAmount !== null) return t.announce.approved(formatTry(view.creditedAmount));
  return t.announce.other(t.states[view.status].title);
}

function languageSwitch(t: Messages, href: SafeUrl): SafeHtml {
  return html`<nav class="lang" aria-label="${t.switchLabel}">
    <a href="${href}" lang="${t.switchTo.lang}" hreflang="${t.switchTo.lang}">${t.switchTo.label}</a>
  </nav>`;
}

/**
 * The part of the page that follows the deposit's state. The script swaps it in place when the state changes
 * (data-status, data-confirmed), so it carries what the script needs: the countdown's seconds and the words
 * to announce.
 */
function content(t: Messages, lang: Language, view: DepositPageView, urls: DepositPageUrls): SafeHtml {
  const { status } = view;
  const body = view.bankAccount
    ? paymentDetails(t, lang, view, view.bankAccount, urls)
    : isOutcome(status)
      ? outcome(t, view, status)
      : html`<p class="reference">${t.referenceOnOutcome} <strong id="reference">${view.referenceNo}</strong></p>`;
  return html`<div
    id="content"
    data-status="${status}"
    data-confirmed="${view.userConfirmedAt ? 'true' : 'false'}"
    data-seconds-left="${view.bankAccount ? String(view.secondsLeft) : ''}"
    data-announce="${announcement(t, view)}"
  >
    ${body} ${backLink(t, view, !view.bankAccount)}
  </div>`;
}

export function renderDepositPage(view: DepositPageView, urls: DepositPageUrls, lang: Language = 'tr'): string {
  const t = MESSAGES[lang];
  return html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${t.htmlTitle} · ${view.siteName}</title>
        <link rel="stylesheet" href="${urls.stylesheet}" />
      </head>
      <body>
        <main data-status-url="${urls.status}" data-page-url="${urls.page}" data-copy-label="${t.copy}" data-copied="${t.copied}">
          ${view.livemode ? '' : testModeBanner(t)}
          <div class="top">
            <p class="site">${view.siteName}</p>
            ${languageSwitch(t, urls.otherLanguage)}
          </div>
          <h1>${t.heading}</h1>
          ${content(t, lang, view, urls)}
          <p id="live" class="live" role="status"></p>
        </main>
        <script src="${urls.script}" defer></script>
      </body>
    </html>`.value;
}

/** The answer to a confirmation posted from another site: refused, and it says so without naming anything. */
export function renderCrossSitePage(stylesheet: SafeUrl, lang: Language = 'tr'): string {
  const t = MESSAGES[lang];
  return messagePage(stylesheet, lang, t.crossSiteTitle, t.crossSiteBody);
}

/** The page for an unknown, malformed or dead link: the same for all, styled, and it names nothing. */
export function renderLinkNotFoundPage(stylesheet: SafeUrl, lang: Language = 'tr'): string {
  const t = MESSAGES[lang];
  return messagePage(stylesheet, lang, t.notFoundTitle, t.notFoundBody);
}

/** A phone-ready page with one heading and one paragraph, on the deposit page's stylesheet. */
function messagePage(stylesheet: SafeUrl, lang: Language, title: string, body: string): string {
  return html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        <link rel="stylesheet" href="${stylesheet}" />
      </head>
      <body>
        <main class="message">
          <section class="state state-expired" aria-labelledby="message-title">
            <div class="state-head">
              <span class="state-icon" aria-hidden="true">!</span>
              <h1 id="message-title">${title}</h1>
            </div>
            <p>${body}</p>
          </section>
        </main>
      </body>
    </html>`.value;
}
