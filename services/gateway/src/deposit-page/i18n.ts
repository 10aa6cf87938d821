/**
 * Every string of the hosted deposit page, server-rendered and client-side alike, in one catalogue: Turkish
 * by default, English when the browser prefers it (Accept-Language) or the user switches (`?lang=en`).
 * Amounts keep the Turkish form (1.500,00 ₺) in both: it is what the user types into a Turkish bank's form.
 */
export const LANGUAGES = ['tr', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface StateText {
  title: string;
  body: string;
}

export interface Messages {
  htmlTitle: string;
  heading: string;
  lead: (amount: string) => { before: string; after: string };
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
  left: string;
  credited: string;
  requested: (amount: string) => string;
  referenceOnOutcome: string;
  states: Record<string, StateText>;
  liveChanged: string;
  liveApproved: string;
  confirmButton: string;
  confirmHint: string;
  confirmed: string;
  backTo: (site: string) => string;
  crossSiteTitle: string;
  crossSiteBody: string;
  notFoundTitle: string;
  notFoundBody: string;
  switchTo: { lang: Language; label: string };
}

const tr: Messages = {
  htmlTitle: 'Para yatırma',
  heading: 'Para yatırma',
  lead: () => ({ before: 'Aşağıdaki hesaba tam', after: 'havale/EFT yapın ve açıklamaya referans kodunu yazın.' }),
  amount: 'Tutar',
  reference: 'Açıklama (referans)',
  iban: 'IBAN',
  holder: 'Alıcı',
  bank: 'Banka',
  copy: 'Kopyala',
  copied: 'Kopyalandı',
  copyLabel: (label) => `${label} kopyala`,
  warn: 'Referans kodunu açıklamaya yazmazsanız ödemeniz gecikebilir.',
  deadline: 'Son ödeme zamanı:',
  left: 'kaldı',
  credited: 'Bakiyenize eklenen:',
  requested: (amount) => `(talep edilen ${amount})`,
  referenceOnOutcome: 'Referans kodu:',
  states: {
    PENDING_REVIEW: { title: 'Ödemeniz alındı', body: 'Havaleniz bize ulaştı ve kontrol ediliyor. Onaylandığında bakiyenize eklenecek.' },
    LATE_ARRIVAL: { title: 'Ödemeniz alındı', body: 'Havaleniz süre dolduktan sonra ulaştı; ekibimiz kontrol ediyor.' },
    APPROVED: { title: 'Yatırım tamamlandı', body: 'Ödemeniz onaylandı. Bu sayfayı kapatabilirsiniz.' },
    REJECTED: { title: 'Yatırım onaylanmadı', body: 'Bu yatırım talebi reddedildi. Lütfen destek ekibiyle iletişime geçin.' },
    AUTO_CANCELLED: {
      title: 'Süre doldu',
      body: 'Bu yatırım talebinin süresi doldu; bu hesaba ödeme yapmayın, sitenizden yeni bir talep oluşturun. Süre dolduktan sonra havale yaptıysanız paranız kaybolmaz: ekibimiz inceler, destek ekibine referans kodunu iletin.',
    },
  },
  liveChanged: 'Durum güncellendi.',
  liveApproved: 'Yatırım onaylandı.',
  confirmButton: 'Havaleyi yaptım',
  confirmHint: 'Havaleyi yaptıktan sonra basın; paranız hesabımıza ulaştığında kontrol edip bakiyenize ekleriz.',
  confirmed:
    'Bildiriminizi aldık. Havaleniz hesabımıza ulaşınca kontrol edip bakiyenize ekleyeceğiz; bu sayfa kendiliğinden güncellenir, kapatabilirsiniz.',
  backTo: (site) => `${site} sitesine dön`,
  crossSiteTitle: 'İstek reddedildi',
  crossSiteBody: 'Bu işlem yalnızca yatırım sayfasının kendisinden yapılabilir. Sayfaya dönüp yeniden deneyin.',
  notFoundTitle: 'Bağlantı geçersiz',
  notFoundBody: 'Bu yatırım bağlantısı bulunamadı ya da artık kullanılamıyor. Lütfen sitenize dönüp yeni bir yatırım talebi oluşturun.',
  switchTo: { lang: 'en', label: 'English' },
};

const en: Messages = {
  htmlTitle: 'Deposit',
  heading: 'Deposit',
  lead: () => ({
    before: 'Send exactly',
    after: 'by bank transfer (havale/EFT) to the account below, with the reference code as the description.',
  }),
  amount: 'Amount',
  reference: 'Description (reference)',
  iban: 'IBAN',
  holder: 'Recipient',
  bank: 'Bank',
  copy: 'Copy',
  copied: 'Copied',
  copyLabel: (label) => `Copy ${label}`,
  warn: 'Without the reference code in the description your payment may be delayed.',
  deadline: 'Pay by:',
  left: 'left',
  credited: 'Added to your balance:',
  requested: (amount) => `(requested ${amount})`,
  referenceOnOutcome: 'Reference code:',
  states: {
    PENDING_REVIEW: {
      title: 'Payment received',
      body: 'Your transfer has reached us and is being checked. It will be added to your balance once approved.',
    },
    LATE_ARRIVAL: { title: 'Payment received', body: 'Your transfer arrived after the deadline; our team is checking it.' },
    APPROVED: { title: 'Deposit complete', body: 'Your payment was approved. You can close this page.' },
    REJECTED: { title: 'Deposit not approved', body: 'This deposit request was rejected. Please contact support.' },
    AUTO_CANCELLED: {
      title: 'Time is up',
      body: 'This deposit request has expired; do not pay into this account, create a new request on the site. If you sent money after the deadline it is not lost: our team reviews it; give support the reference code.',
    },
  },
  liveChanged: 'Status updated.',
  liveApproved: 'Deposit approved.',
  confirmButton: 'I have sent the transfer',
  confirmHint: 'Press this once you have made the transfer; when the money reaches us we check it and add it to your balance.',
  confirmed:
    'Thank you, noted. When your transfer reaches our account we check it and add it to your balance; this page updates by itself, you can close it.',
  backTo: (site) => `Back to ${site}`,
  crossSiteTitle: 'Request refused',
  crossSiteBody: 'This can only be done from the deposit page itself. Go back to the page and try again.',
  notFoundTitle: 'Invalid link',
  notFoundBody: 'This deposit link was not found or can no longer be used. Please go back to the site and create a new deposit request.',
  switchTo: { lang: 'tr', label: 'Türkçe' },
};

export const MESSAGES: Record<Language, Messages> = { tr, en };

/** `?lang=` wins; otherwise the first of the browser's Accept-Language entries that is Turkish or English. */
export function pickLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  if (query === 'tr' || query === 'en') return query;
  const preferences = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^q=([0-9.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { primary: tag.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  const match = preferences.find((entry) => entry.primary === 'tr' || entry.primary === 'en');
  return match?.primary === 'en' ? 'en' : 'tr';
}
