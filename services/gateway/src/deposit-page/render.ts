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
  AUTO_CANCELLED: { title: 'Süre doldu', body: 'Bu yatırım talebinin süresi doldu. Yeni bir talep oluşturun; bu hesaba ödeme yapmayın.' },
};

function copyRow(label: string, value: string, copyValue: string, id: string): SafeHtml {
  return html`<div class="row">
    <dt>${label}</dt>
    <dd>
      <span id="${id}">${value}</span>
      <button type="button" class="copy" data-copy="${copyValue}" aria-label="${label} kopyala">Kopyala</button>
    </dd>
  </div>`;
}

function paymentDetails(view: DepositPageView, bank: NonNullable<DepositPageView['bankAccount']>, amount: string): SafeHtml {
  const deadline = new Date(view.expiresAt).toLocaleString('tr-TR', { timeZone: 'Europe/Istanbul' });
  return html`<p class="lead">Aşağıdaki hesaba <strong>${amount}</strong> havale/EFT yapın ve açıklamaya referans kodunu yazın.</p>
    <dl>
      ${copyRow('Tutar', amount, liraInputValue(view.amount), 'amount')} ${copyRow('Banka', bank.bankName, bank.bankName, 'bank')}
      ${copyRow('Alıcı', bank.holderName, bank.holderName, 'holder')} ${copyRow('IBAN', groupIban(bank.iban), bank.iban, 'iban')}
      ${copyRow('Açıklama (referans)', view.referenceNo, view.referenceNo, 'reference')}
    </dl>
    <p class="warn">Referans kodunu açıklamaya yazmazsanız ödemeniz gecikebilir.</p>
    <p class="deadline">
      Son ödeme zamanı:
      <time id="expires" datetime="${view.expiresAt}">${deadline}</time>
      <span id="countdown" aria-live="polite"></span>
    </p>`;
}

export function renderDepositPage(view: DepositPageView, urls: DepositPageUrls): string {
  const amount = formatTry(view.amount);
  const info = STATUS_TEXT[view.status];
  const body = view.bankAccount
    ? paymentDetails(view, view.bankAccount, amount)
    : html`<h2 id="state-title">${info?.title ?? view.status}</h2>
        <p id="state-body">${info?.body ?? ''}</p>`;
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
          <h1>Para yatırma</h1>
          <p class="site">${view.siteName} · ${amount}</p>
          ${body}
          <p id="live" role="status"></p>
        </main>
        <script src="${urls.script}" defer></script>
      </body>
    </html>`.value;
}
