/** Server-side HTML of the hosted deposit page: complete without JavaScript; the script only enhances. */
import type { DepositPageView } from '@kasa/contracts';
import { formatTry, liraInputValue } from '@kasa/money';

const escape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

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

function copyRow(label: string, value: string, copyValue: string, id: string): string {
  return `<div class="row"><dt>${label}</dt><dd><span id="${id}">${escape(value)}</span>
    <button type="button" class="copy" data-copy="${escape(copyValue)}" aria-label="${label} kopyala">Kopyala</button></dd></div>`;
}

export function renderDepositPage(view: DepositPageView, statusUrl: string, scriptUrl: string): string {
  const amount = formatTry(view.amount);
  const info = STATUS_TEXT[view.status];
  const body = view.bankAccount
    ? `<p class="lead">Aşağıdaki hesaba <strong>${escape(amount)}</strong> havale/EFT yapın ve açıklamaya referans kodunu yazın.</p>
      <dl>
        ${copyRow('Tutar', amount, liraInputValue(view.amount), 'amount')}
        ${copyRow('Banka', view.bankAccount.bankName, view.bankAccount.bankName, 'bank')}
        ${copyRow('Alıcı', view.bankAccount.holderName, view.bankAccount.holderName, 'holder')}
        ${copyRow('IBAN', groupIban(view.bankAccount.iban), view.bankAccount.iban, 'iban')}
        ${copyRow('Açıklama (referans)', view.referenceNo, view.referenceNo, 'reference')}
      </dl>
      <p class="warn">Referans kodunu açıklamaya yazmazsanız ödemeniz gecikebilir.</p>
      <p class="deadline">Son ödeme zamanı: <time id="expires" datetime="${view.expiresAt}">${escape(
        new Date(view.expiresAt).toLocaleString('tr-TR', { timeZone: 'Europe/Istanbul' }),
      )}</time> <span id="countdown" aria-live="polite"></span></p>`
    : `<h2 id="state-title">${escape(info?.title ?? view.status)}</h2><p id="state-body">${escape(info?.body ?? '')}</p>`;
  return `<!doctype html>
<html lang="tr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Para yatırma · ${escape(view.siteName)}</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  main { max-width: 34rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem 1.75rem; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; } .site { color: #5b6475; margin: 0 0 1rem; }
  .lead { font-size: 1.05rem; } dl { margin: 1rem 0; } .row { display: flex; justify-content: space-between; gap: 1rem; padding: .6rem 0; border-bottom: 1px solid #eceef2; }
  dt { color: #5b6475; } dd { margin: 0; font-weight: 600; text-align: right; word-break: break-all; }
  .copy { margin-left: .5rem; font-size: .8rem; padding: .2rem .55rem; border: 1px solid #c5cad3; background: #fff; border-radius: 6px; cursor: pointer; }
  .warn { background: #fff6e0; border-radius: 8px; padding: .6rem .8rem; } .deadline { color: #5b6475; }
  #live { margin-top: 1rem; color: #0f6b3a; font-weight: 600; }
</style>
</head>
<body>
<main data-status="${escape(view.status)}" data-status-url="${escape(statusUrl)}">
  <h1>Para yatırma</h1>
  <p class="site">${escape(view.siteName)} · ${escape(amount)}</p>
  ${body}
  <p id="live" role="status"></p>
</main>
<script src="${escape(scriptUrl)}" defer></script>
</body>
</html>`;
}
