/** Server-side HTML of the hosted deposit page: complete without JavaScript; the script only enhances. */
import type { DepositPageView } from '@kasa/contracts';
import { html, type SafeHtml, type SafeUrl } from '@kasa/html';
import { formatTry, liraInputValue } from '@kasa/money';

/** Where the page's script polls, and its script and stylesheet (all on the gateway's origin). */
export interface DepositPageUrls {
  status: SafeUrl;
  script: SafeUrl;
  stylesheet: SafeUrl;
}

export function groupIban(iban: string): string {
  return iban.replace(/(.{4})/g, '$1 ').trim();
}

const STATUS_TEXT: Record<string, { title: string; body: string }> = {
  PENDING_REVIEW: { title: 'Ödemeniz alındı', body: 'Havaleniz bize ulaştı ve kontrol ediliyor. Onaylandığında bakiyenize eklenecek.' },
  LATE_ARRIVAL: { title: 'Ödemeniz alındı', body: 'Havaleniz süre dolduktan sonra ulaştı; ekibimiz kontrol ediyor.' },
  APPROVED: { title: 'Yatırım tamamlandı', body: 'Ödemeniz onaylandı. Bu sayfayı kapatabilirsiniz.' },
  REJECTED: { title: 'Yatırım onaylanmadı', body: 'Bu yatırım talebi reddedildi. Lütfen destek ekibiyle iletişime geçin.' },
  AUTO_CANCELLED: {
    title: 'Süre doldu',
    body: 'Bu yatırım talebinin süresi doldu; bu hesaba ödeme yapmayın, sitenizden yeni bir talep oluşturun. Süre dolduktan sonra havale yaptıysanız paranız kaybolmaz: ekibimiz inceler, destek ekibine referans kodunu iletin.',
  },
};

/** The IBAN in groups of four, each group a unit that never breaks across lines. */
function ibanGroups(iban: string): SafeHtml {
  const groups = groupIban(iban).split(' ');
  return html`${groups.map((group) => html`<span class="group">${group}</span> `)}`;
}

function copyRow(label: string, value: SafeHtml | string, copyValue: string, id: string, extraClass = ''): SafeHtml {
  return html`<div class="row ${extraClass}">
    <dt>${label}</dt>
    <dd>
      <span id="${id}" class="value">${value}</span>
      <button type="button" class="copy" data-copy="${copyValue}" aria-label="${label} kopyala">Kopyala</button>
    </dd>
  </div>`;
}

function paymentDetails(view: DepositPageView, bank: NonNullable<DepositPageView['bankAccount']>, amount: string): SafeHtml {
  const deadline = new Date(view.expiresAt).toLocaleString('tr-TR', { timeZone: 'Europe/Istanbul' });
  return html`<p class="lead">Aşağıdaki hesaba tam <strong>${amount}</strong> havale/EFT yapın ve açıklamaya referans kodunu yazın.</p>
    <dl>
      ${copyRow('Tutar', amount, liraInputValue(view.amount), 'amount', 'key')}
      ${copyRow('Açıklama (referans)', view.referenceNo, view.referenceNo, 'reference', 'key')}
      ${copyRow('IBAN', ibanGroups(bank.iban), bank.iban, 'iban')} ${copyRow('Alıcı', bank.holderName, bank.holderName, 'holder')}
      ${copyRow('Banka', bank.bankName, bank.bankName, 'bank')}
    </dl>
    <p class="warn">Referans kodunu açıklamaya yazmazsanız ödemeniz gecikebilir.</p>
    <p class="deadline">
      Son ödeme zamanı:
      <time id="expires" datetime="${view.expiresAt}">${deadline}</time>
      <strong id="countdown" aria-live="off"></strong>
    </p>`;
}

function stateDetails(view: DepositPageView): SafeHtml {
  const info = STATUS_TEXT[view.status];
  const credited =
    view.status === 'APPROVED' && view.creditedAmount !== null
      ? html`<p class="credited">
          Bakiyenize eklenen: <strong id="credited">${formatTry(view.creditedAmount)}</strong>
          ${view.creditedAmount === view.amount ? '' : html`<span class="requested">(talep edilen ${formatTry(view.amount)})</span>`}
        </p>`
      : '';
  return html`<h2 id="state-title">${info?.title ?? view.status}</h2>
    ${credited}
    <p id="state-body">${info?.body ?? ''}</p>
    <p class="reference">Referans kodu: <strong id="reference">${view.referenceNo}</strong></p>`;
}

export function renderDepositPage(view: DepositPageView, urls: DepositPageUrls): string {
  const amount = formatTry(view.amount);
  const body = view.bankAccount ? paymentDetails(view, view.bankAccount, amount) : stateDetails(view);
  return html`<!doctype html>
    <html lang="tr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Para yatırma · ${view.siteName}</title>
        <link rel="stylesheet" href="${urls.stylesheet}" />
      </head>
      <body>
        <main data-status="${view.status}" data-status-url="${urls.status}">
          <p class="site">${view.siteName}</p>
          <h1>Para yatırma</h1>
          ${body}
          <p id="live" role="status"></p>
        </main>
        <script src="${urls.script}" defer></script>
      </body>
    </html>`.value;
}

/** The page for an unknown, malformed or dead link: the same for all, styled, and it names nothing. */
export function renderLinkNotFoundPage(stylesheet: SafeUrl): string {
  return html`<!doctype html>
    <html lang="tr">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Bağlantı geçersiz</title>
        <link rel="stylesheet" href="${stylesheet}" />
      </head>
      <body>
        <main>
          <h1>Bağlantı geçersiz</h1>
          <p>Bu yatırım bağlantısı bulunamadı ya da artık kullanılamıyor. Lütfen sitenize dönüp yeni bir yatırım talebi oluşturun.</p>
        </main>
      </body>
    </html>`.value;
}
