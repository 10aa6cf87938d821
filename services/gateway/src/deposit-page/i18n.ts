/**
 * Every string of the hosted deposit page, server-rendered and client-side alike, in one catalogue: Turkish
 * by default, English when the browser prefers it (Accept-Language) or the user switches (`?lang=en`).
 * Amounts keep the Turkish form (1.500,00 ₺) in both: it is what the user types into a Turkish bank's form.
 */
import type { UserRejectionReason } from '@kasa/contracts';
import { preferredLanguage } from '@kasa/html';

export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface StateText {
  title: string;
  body: string;
  /** What the end user can do now, when there is something. */
  next?: string;
}

/** The outcome states the page shows instead of bank details. */
export type OutcomeStatus = 'PENDING_REVIEW' | 'LATE_ARRIVAL' | 'APPROVED' | 'REJECTED' | 'AUTO_CANCELLED';

export interface Messages {
  htmlTitle: string;
  heading: string;
  lead: { before: string; after: string };
  amount: string;
  reference: string;
  iban: string;
  holder: string;
  bank: string;
  copy: string;
  copied: string;
  copyLabel: (label: string) => string;
  warn: string;
  deadline: string;
  timeZone: string;
  left: string;
  credited: string;
  requested: (amount: string) => string;
  referenceOnOutcome: string;
  states: Record<OutcomeStatus, StateText>;
  /** A rejection's body when the operator chose what to tell the user (else states.REJECTED.body). */
  rejectionReasons: Record<UserRejectionReason, string>;
  /** What the live region says when the page updates itself. */
  announce: { approved: (amount: string) => string; other: (title: string) => string };
  confirmButton: string;
  confirmHint: string;
  confirmedTitle: string;
  confirmedBody: string;
  backTo: (site: string) => string;
  crossSiteTitle: string;
  crossSiteBody: string;
  notFoundTitle: string;
  notFoundBody: string;
  switchTo: { lang: Language; label: string };
  switchLabel: string;
  /** A sandbox's (test) deposit: the banner at the top, and the button that simulates the transfer. */
  testMode: string;
  simulateButton: string;
  simulateHint: string;
}

const tr: Messages = {
  htmlTitle: 'Para yatırma',
  heading: 'Para yatırma',
  lead: { before: 'Aşağıdaki hesaba tam', after: 'havale/EFT yapın ve açıklamaya referans kodunu yazın.' },
  amount: 'Gönderilecek tutar',
  reference: 'Açıklama (referans kodu)',
  iban: 'IBAN',
  holder: 'Alıcı',
  bank: 'Banka',
  copy: 'Kopyala',
  copied: 'Kopyalandı',
  copyLabel: (label) => `${label} kopyala`,
  warn: 'Referans kodunu açıklamaya yazmazsanız ödemeniz gecikebilir.',
  deadline: 'Son ödeme zamanı:',
  timeZone: 'TSİ',
  left: 'kaldı',
  credited: 'Bakiyenize eklenen:',
  requested: (amount) => `(talep edilen ${amount})`,
  referenceOnOutcome: 'Referans kodu:',
  states: {
    PENDING_REVIEW: {
      title: 'Ödemeniz alındı',
      body: 'Havaleniz bize ulaştı ve kontrol ediliyor. Onaylandığında bakiyenize eklenecek; bu sayfa kendiliğinden güncellenir.',
    },
    LATE_ARRIVAL: {
      title: 'Ödemeniz alındı',
      body: 'Havaleniz süre dolduktan sonra ulaştı; ekibimiz kontrol ediyor. Onaylandığında bakiyenize eklenecek; bu sayfa kendiliğinden güncellenir.',
    },
    APPROVED: { title: 'Yatırım tamamlandı', body: 'Ödemeniz onaylandı. Bu sayfayı kapatabilirsiniz.' },
    REJECTED: {
      title: 'Yatırım onaylanmadı',
      body: 'Bu yatırım talebi onaylanmadı.',
      next: 'Sorunuz varsa destek ekibine referans kodunu iletin.',
    },
    AUTO_CANCELLED: {
      title: 'Süre doldu',
      body: 'Bu yatırım talebinin süresi doldu. Bu hesaba artık ödeme yapmayın; sitenizden yeni bir talep oluşturun.',
      next: 'Süre dolduktan sonra havale yaptıysanız paranız kaybolmaz: ekibimiz inceler. Destek ekibine referans kodunu iletin.',
    },
  },
  rejectionReasons: {
    TRANSFER_NOT_RECEIVED: 'Bu talep için hesabımıza bir havale ulaşmadı.',
    AMOUNT_MISMATCH: 'Gönderilen tutar, talep edilen tutarla uyuşmadı.',
    SENDER_NOT_ACCOUNT_HOLDER:
      'Havale sizin adınıza olmayan bir hesaptan geldi. Yalnızca kendi adınıza olan hesaptan gönderilen havaleler kabul edilir.',
    REFERENCE_MISSING: 'Havalenin açıklamasında referans kodu yoktu, bu yüzden talebinizle eşleştirilemedi.',
  },
  announce: {
    approved: (amount) => `Yatırım onaylandı: bakiyenize ${amount} eklendi.`,
    other: (title) => `Durum güncellendi: ${title}.`,
  },
  confirmButton: 'Havaleyi yaptım',
  confirmHint: 'Havaleyi yaptıktan sonra basın; paranız hesabımıza ulaştığında kontrol edip bakiyenize ekleriz.',
  confirmedTitle: 'Bildiriminizi aldık',
  confirmedBody:
    'Havaleniz hesabımıza ulaşınca kontrol edip bakiyenize ekleyeceğiz; bu sayfa kendiliğinden güncellenir. Sayfayı kapatabilirsiniz.',
  backTo: (site) => `${site} sitesine dön`,
  crossSiteTitle: 'İstek reddedildi',
  crossSiteBody: 'Bu işlem yalnızca yatırım sayfasının kendisinden yapılabilir. Sayfaya dönüp yeniden deneyin.',
  notFoundTitle: 'Bağlantı geçersiz',
  notFoundBody: 'Bu yatırım bağlantısı bulunamadı ya da artık kullanılamıyor. Lütfen sitenize dönüp yeni bir yatırım talebi oluşturun.',
  switchTo: { lang: 'en', label: 'English' },
  switchLabel: 'Dil',
  testMode: 'Test modu: gerçek para kullanılmaz',
  simulateButton: 'Transferi simüle et',
  simulateHint: 'Yalnızca test içindir: tam tutarda, referans kodlu bir havale gelmiş gibi işlenir.',
};

const en: Messages = {
  htmlTitle: 'Deposit',
  heading: 'Deposit',
  lead: {
    before: 'Send exactly',
    after: 'by bank transfer (havale/EFT) to the account below, with the reference code as the description.',
  },
  amount: 'Amount to send',
  reference: 'Description (reference code)',
  iban: 'IBAN',
  holder: 'Recipient',
  bank: 'Bank',
  copy: 'Copy',
  copied: 'Copied',
  copyLabel: (label) => `Copy ${label}`,
  warn: 'Without the reference code in the description your payment may be delayed.',
  deadline: 'Pay by:',
  timeZone: 'Turkey time',
  left: 'left',
  credited: 'Added to your balance:',
  requested: (amount) => `(requested ${amount})`,
  referenceOnOutcome: 'Reference code:',
  states: {
    PENDING_REVIEW: {
      title: 'Payment received',
      body: 'Your transfer has reached us and is being checked. It will be added to your balance once approved; this page updates by itself.',
    },
    LATE_ARRIVAL: {
      title: 'Payment received',
      body: 'Your transfer arrived after the deadline; our team is checking it. It will be added to your balance once approved; this page updates by itself.',
    },
    APPROVED: { title: 'Deposit complete', body: 'Your payment was approved. You can close this page.' },
    REJECTED: {
      title: 'Deposit not approved',
      body: 'This deposit request was not approved.',
      next: 'If you have questions, give support the reference code.',
    },
    AUTO_CANCELLED: {
      title: 'Time is up',
      body: 'This deposit request has expired. Do not pay into this account any more; create a new request on the site.',
      next: 'If you sent money after the deadline it is not lost: our team reviews it. Give support the reference code.',
    },
  },
  rejectionReasons: {
    TRANSFER_NOT_RECEIVED: 'No transfer for this request reached our account.',
    AMOUNT_MISMATCH: 'The amount sent did not match the amount requested.',
    SENDER_NOT_ACCOUNT_HOLDER:
      'The transfer came from an account that is not in your name. Only transfers from an account in your own name are accepted.',
    REFERENCE_MISSING: "The transfer's description did not carry the reference code, so it could not be matched to your request.",
  },
  announce: {
    approved: (amount) => `Deposit approved: ${amount} added to your balance.`,
    other: (title) => `Status updated: ${title}.`,
  },
  confirmButton: 'I have sent the transfer',
  confirmHint: 'Press this once you have made the transfer; when the money reaches us we check it and add it to your balance.',
  confirmedTitle: 'Thank you, noted',
  confirmedBody:
    'When your transfer reaches our account we check it and add it to your balance; this page updates by itself. You can close it.',
  backTo: (site) => `Back to ${site}`,
  crossSiteTitle: 'Request refused',
  crossSiteBody: 'This can only be done from the deposit page itself. Go back to the page and try again.',
  notFoundTitle: 'Invalid link',
  notFoundBody: 'This deposit link was not found or can no longer be used. Please go back to the site and create a new deposit request.',
  switchTo: { lang: 'tr', label: 'Türkçe' },
  switchLabel: 'Language',
  testMode: 'Test mode: no real money moves',
  simulateButton: 'Simulate the transfer',
  simulateHint: 'For testing only: handled as if a transfer of the full amount with the reference code had arrived.',
};

export const MESSAGES: Record<Language, Messages> = { tr, en };

/** `?lang=` wins; otherwise the first of the browser's Accept-Language entries that is Turkish or English. */
export function pickLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  if (query === 'tr' || query === 'en') return query;
  return preferredLanguage(acceptLanguage, LANGUAGES, 'tr');
}
