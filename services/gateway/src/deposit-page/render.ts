/** Server-side HTML of the hosted deposit page: complete without JavaScript; the script only enhances. */
import type { DepositPageView } from '@kasa/contracts';
import { html, trySafeUrl, type SafeHtml, type SafeUrl } from '@kasa/html';
import { formatTry, liraInputValue } from '@kasa/money';
import { MESSAGES, type Language, type Messages } from './i18n.js';

/** Where the page's script polls, its script and stylesheet, the page in the other language, the confirmation. */
export interface DepositPageUrls {
  status: SafeUrl;
  script: SafeUrl;
  stylesheet: SafeUrl;
  otherLanguage: SafeUrl;
  confirm: SafeUrl;
}

export function groupIban(iban: string): string {
  return iban.replace(/(.{4})/g, '$1 ').trim();
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
  confirmUrl: SafeUrl,
): SafeHtml {
  const amount = formatTry(view.amount);
  const deadline = new Date(view.expiresAt).toLocaleString(lang === 'en' ? 'en-GB' : 'tr-TR', { timeZone: 'Europe/Istanbul' });
  const lead = t.lead(amount);
  return html`<p class="lead">${lead.before} <strong>${amount}</strong> ${lead.after}</p>
    <dl>
      ${copyRow(t, t.amount, amount, liraInputValue(view.amount), 'amount', 'key')}
      ${copyRow(t, t.reference, view.referenceNo, view.referenceNo, 'reference', 'key')}
      ${copyRow(t, t.iban, ibanGroups(bank.iban), bank.iban, 'iban')} ${copyRow(t, t.holder, bank.holderName, bank.holderName, 'holder')}
      ${copyRow(t, t.bank, bank.bankName, bank.bankName, 'bank')}
    </dl>
    <p class="warn">${t.warn}</p>
    <p class="deadline">
      ${t.deadline}
      <time id="expires" datetime="${view.expiresAt}">${deadline}</time>
      <strong id="countdown" aria-live="off"></strong>
    </p>
    ${confirmation(t, view, confirmUrl)}`;
}

/** "I have sent the transfer": a plain form (works without JavaScript), or what happens next once pressed. */
function confirmation(t: Messages, view: DepositPageView, confirmUrl: SafeUrl): SafeHtml {
  if (view.userConfirmedAt) return html`<p id="confirmed" class="confirmed" role="status">${t.confirmed}</p>`;
  return html`<form method="post" action="${confirmUrl}" class="confirm">
    <button type="submit" id="confirm">${t.confirmButton}</button>
    <p class="hint">${t.confirmHint}</p>
  </form>`;
}

/** The link back to the partner's site, when the partner gave one (already checked on create). */
function backLink(t: Messages, view: DepositPageView): SafeHtml | string {
  const href = view.returnUrl ? trySafeUrl(view.returnUrl) : null;
  return href ? html`<p class="back"><a id="back" href="${href}" rel="noreferrer">${t.backTo(view.siteName)}</a></p>` : '';
}

function stateDetails(t: Messages, view: DepositPageView): SafeHtml {
  const info = t.states[view.status];
  const credited =
    view.status === 'APPROVED' && view.creditedAmount !== null
      ? html`<p class="credited">
          ${t.credited} <strong id="credited">${formatTry(view.creditedAmount)}</strong>
          ${view.creditedAmount === view.amount ? '' : html`<span class="requested">${t.requested(formatTry(view.amount))}</span>`}
        </p>`
      : '';
  return html`<h2 id="state-title">${info?.title ?? view.status}</h2>
    ${credited}
    <p id="state-body">${info?.body ?? ''}</p>
    <p class="reference">${t.referenceOnOutcome} <strong id="reference">${view.referenceNo}</strong></p>`;
}

function languageSwitch(t: Messages, href: SafeUrl): SafeHtml {
  return html`<nav class="lang" aria-label="Language / Dil">
    <a href="${href}" lang="${t.switchTo.lang}" hreflang="${t.switchTo.lang}">${t.switchTo.label}</a>
  </nav>`;
}

export function renderDepositPage(view: DepositPageView, urls: DepositPageUrls, lang: Language = 'tr'): string {
  const t = MESSAGES[lang];
  const body = view.bankAccount ? paymentDetails(t, lang, view, view.bankAccount, urls.confirm) : stateDetails(t, view);
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
        <main
          data-status="${view.status}"
          data-status-url="${urls.status}"
          data-copy-label="${t.copy}"
          data-copied="${t.copied}"
          data-left="${t.left}"
          data-live-changed="${t.liveChanged}"
          data-live-approved="${t.liveApproved}"
        >
          ${languageSwitch(t, urls.otherLanguage)}
          <p class="site">${view.siteName}</p>
          <h1>${t.heading}</h1>
          ${body}
          <p id="live" role="status"></p>
          ${backLink(t, view)}
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
        <main>
          <h1>${title}</h1>
          <p>${body}</p>
        </main>
      </body>
    </html>`.value;
}
