/**
 * The record pages in Turkish: deposits, withdrawals, returns, search, deliveries and the audit log answer a browser
 * that prefers Turkish with their columns, filters, hints, confirm texts and titles in Turkish and no English sentence
 * left; the audit log names each action in words in both languages, beside its code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { withLocale } from '../src/i18n/index.js';
import { actionLabel } from '../src/pages/audit.page.js';
import { waitedText } from '../src/pages/record-lists.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { expectTurkish, visibleText } from './i18n-pages.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

/** A page as the logged-in admin's browser gets it, asking for `language`. */
async function get(path: string, language = 'tr-TR,tr;q=0.9'): Promise<string> {
  const res = await setup.page.request.get(path, { headers: { 'accept-language': language } });
  expect(res.status()).toBe(200);
  return res.text();
}

/** The values of one attribute (data-confirm, placeholder, aria-label, title) across the page. */
function attributes(page: string, name: string): string[] {
  return [...page.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => visibleText(m[1] ?? ''));
}

/** A deposit of Ayşe Yılmaz's whose money arrived, rejected; with the transfer that paid it. */
async function rejectedDeposit(): Promise<{ intentId: string; referenceNo: string; bankTransferId: string }> {
  const { h, site } = setup;
  const deposit = await h.createDeposit(site, 75000, { externalUserLabel: 'Ayşe Yılmaz' });
  expect((await h.transfer(deposit.referenceNo, 75000)).status).toBe(201);
  expect((await h.ops('POST', `/intents/${deposit.intentId}/reject`, { reason: 'Yanlış hesap' })).status).toBe(200);
  const read = await h.ops('GET', `/intents/${deposit.intentId}`);
  return {
    ...deposit,
    bankTransferId: (read.body as { bankTransfers: Array<{ bankTransferId: string }> }).bankTransfers[0]!.bankTransferId,
  };
}

describe('record pages in Turkish', () => {
  it("show the deposits list's filters and columns, and a rejected deposit's facts and return form", async () => {
    const { h, site } = setup;
    const waiting = await h.createDeposit(site, 30000, { externalUserLabel: 'Mehmet Demir' });
    expect((await h.transfer(waiting.referenceNo, 30000)).status).toBe(201);

    const list = await get(`/deposits?siteId=${site.siteId}`);
    const text = expectTurkish(list);
    expect(list).toContain('<title>Yatırımlar · Kasa Konsol</title>');
    for (const words of ['Talep edilen', 'Gelen', 'Bekleme', 'Kullanıcı no', 'Önce en yeni', 'Filtrele', 'Temizle', 'Türkiye saatine'])
      expect(text).toContain(words);
    expect(list).toMatch(/<option value="PENDING_REVIEW"\s*>incelemede<\/option>/);
    expect(attributes(list, 'aria-label')).toContain('Lira cinsinden en küçük tutar (TRY)');
    expect(attributes(list, 'data-label')).toEqual(expect.arrayContaining(['Oluşturulma', 'Referans', 'Kullanıcı', 'Talep edilen']));
    expect(text).not.toMatch(/Requested|Received|Newest first|All sites|Waiting/);
    expect(expectTurkish(await get(`/deposits?siteId=${site.siteId}&user=kimse-yok`))).toContain('Bu filtrelere uyan yatırım yok.');

    const rejected = await rejectedDeposit();
    const detail = await get(`/intents/${rejected.intentId}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain(`<title>Yatırım ${rejected.referenceNo} · Kasa Konsol</title>`);
    for (const words of [
      'Yatırım no',
      'Gönderen kontrolü',
      'Red zamanı',
      'Kullanıcıya gösterilen',
      'genel metin',
      'Banka havaleleri',
      'Para iadesi',
    ])
      expect(facts).toContain(words);
    expect(facts).toContain('Gönderene iade et');
    expect(attributes(detail, 'data-confirm')).toContain(
      `750,00 ₺ tutarının Ayşe Yılmaz adına geri gönderilmesi istensin mi? Ödemeden önce incelenir.`,
    );
    expect(attributes(detail, 'placeholder')).toContain('İade gerekçesi');
    expect(facts).not.toMatch(/Sender check|Money back|general text|Return to sender/);
  });

  it("show the withdrawals' tabs and hint, and one withdrawal's payout facts", async () => {
    const { h, site } = setup;
    await h.fund(site, 500000);
    const withdrawal = await h.createWithdrawal(site, 120000);

    const toSend = expectTurkish(await get(`/withdrawals?siteId=${site.siteId}`));
    expect(toSend).toContain("Havale için tam IBAN'ı görmek üzere çekimi açın");
    expect(toSend).toContain('Bu durumda çekim yok.');
    for (const tab of ['İncelenecek', 'Gönderilecek', 'Gönderildi', 'İade edildi', 'Reddedildi']) expect(toSend).toContain(tab);

    const review = expectTurkish(await get(`/withdrawals?status=PENDING_REVIEW&siteId=${site.siteId}`));
    expect(review).toContain(withdrawal.referenceNo);
    expect(review).not.toMatch(/To review|To send|No withdrawals/);

    const detail = await get(`/withdrawals/${withdrawal.withdrawalId}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain(`<title>Çekim ${withdrawal.referenceNo} · Kasa Konsol</title>`);
    for (const words of ['Çekim no', 'Alıcı', 'Ödeme açıklaması', 'Onaylar', 'Site bakiyesi', 'Kullanılabilir', 'Bloke', 'Sonraki adım'])
      expect(facts).toContain(words);
    expect(facts).not.toMatch(/Pay to|Payment description|Site balance|Available|Next step/);
  });

  it("show the returns queue and a return's page, their confirm texts in Turkish", async () => {
    const { h } = setup;
    const rejected = await rejectedDeposit();
    const asked = await h.ops('POST', `/bank-transfers/${rejected.bankTransferId}/return`, { reason: 'Yanlış gönderim' });
    expect(asked.status).toBe(201);
    const returnId = (asked.body as { returnId: string }).returnId;

    const queue = await get('/returns');
    const text = expectTurkish(queue);
    expect(queue).toContain('<title>Gönderene iadeler · Kasa Konsol</title>');
    for (const words of ['İstenme', 'Gerekçe', 'Sonraki adım', 'Yanlış gönderim', 'iş değildir', 'Reddet']) expect(text).toContain(words);
    expect(attributes(queue, 'data-confirm')).toContain('Ayşe Yılmaz adına 750,00 ₺ iadesi reddedilsin mi? Havale önceki yerine döner.');
    expect(attributes(queue, 'placeholder')).toContain('Red gerekçesi');

    const detail = await get(`/returns/${returnId}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain(`<title>İade ${returnId.slice(0, 8)} · Kasa Konsol</title>`);
    for (const words of ['Geri ödenecek kişi', 'Havale', 'Adımları denetim kaydı içinde.']) expect(facts).toContain(words);
    expect(facts).not.toMatch(/Pay back to|Its steps|Asked/);
  });

  it('show the search help, results and a search that finds nothing', async () => {
    const { h, site } = setup;
    const deposit = await h.createDeposit(site, 45000);

    const help = expectTurkish(await get('/search'));
    expect(help).toContain("IBAN'ın son hanelerini yazın.");

    const found = await get(`/search?q=${encodeURIComponent(deposit.referenceNo)}`);
    const text = expectTurkish(found);
    expect(text).toMatch(new RegExp(`${deposit.referenceNo} için \\d+ kayıt bulundu\\. Her liste en yeni 20 kaydı gösterir\\.`));
    for (const words of ['Yatırımlar', 'Çekimler', 'Banka havaleleri', 'Webhook olayları', 'Çekim yok.']) expect(text).toContain(words);
    expect(found).toContain(`<title>Arama: ${deposit.referenceNo} · Kasa Konsol</title>`);

    expect(expectTurkish(await get('/search?q=hic-yok-9'))).toContain('hic-yok-9 ile eşleşen kayıt yok.');
  });

  it("show the deliveries' partners and events, and one event's attempts", async () => {
    const { h } = setup;
    const site = await h.createSite();
    const deposit = await h.createDeposit(site, 150000);
    expect((await h.transfer(deposit.referenceNo, 150000)).status).toBe(201);
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {})).status).toBe(200);
    const events = (await h.ops('GET', `/events?siteId=${site.siteId}`)).body as { data: Array<{ eventId: string; type: string }> };
    const event = events.data.find((e) => e.type === 'intent.approved');
    expect(event).toBeDefined();

    const list = await get(`/deliveries?siteId=${site.siteId}`);
    const text = expectTurkish(list);
    expect(list).toContain('<title>Bildirimler · Kasa Konsol</title>');
    for (const words of [
      'İş ortakları',
      'Olaylar',
      'Tümü',
      'İletilemeyen',
      'Bekleyen',
      'İletilen',
      'Sonraki deneme',
      'Başarı (',
      'Hata süresi',
    ])
      expect(text).toContain(words);
    expect(text).not.toMatch(/Partners|Next attempt|Failing for|All sites|no traffic|not set/);

    const detail = await get(`/deliveries/${event!.eventId}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain(`<title>${deposit.referenceNo} · intent.approved olayı · Kasa Konsol</title>`);
    for (const words of ['Olay no', 'Son deneme', 'Denemeler', 'İçerik']) expect(facts).toContain(words);
    expect(facts).not.toMatch(/Event id|Last attempt|Payload/);
  });

  it('name audit actions in words in both languages, beside their code, with Turkish filters', async () => {
    const { h, site } = setup;
    const deposit = await h.createDeposit(site, 20000);
    expect((await h.transfer(deposit.referenceNo, 20000)).status).toBe(201);
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {})).status).toBe(200);

    const turkish = await get(`/audit?entityId=${deposit.intentId}&action=INTENT.APPROVED`);
    const text = expectTurkish(turkish);
    expect(turkish).toContain('<title>Denetim kaydı · Kasa Konsol</title>');
    expect(text).toContain('Yatırım onaylandı INTENT.APPROVED');
    // The status it moved from and to, in words.
    expect(text).toContain('durum incelemede → onaylandı');
    for (const words of ['Zaman', 'Kim', 'İşlem', 'Kayıt', 'Değişiklik', 'Herkes', 'Her tür', 'Kayıt no', 'Filtrele'])
      expect(text).toContain(words);
    expect(turkish).toMatch(/<option value="INTENT.REJECTED"\s*>Yatırım reddedildi<\/option>/);

    const english = visibleText(await get(`/audit?entityId=${deposit.intentId}&action=INTENT.APPROVED`, 'en-US,en;q=0.9'));
    expect(english).toContain('Deposit approved INTENT.APPROVED');
    expect(english).toContain('status pending review → approved');
    expect(english).toContain('Any kind');
  });

  it("link a bank transfer's entries to its page, and offer the compliance records in the kind filter", async () => {
    const { h } = setup;
    const transfer = await h.transfer('NO REFERENCE HERE', 12345);
    expect(transfer.status).toBe(201);
    const bankTransferId = transfer.body.bankTransferId as string;
    expect((await h.ops('POST', `/bank-transfers/${bankTransferId}/set-aside`, { reason: 'Gönderen bilinmiyor' })).status).toBe(200);

    const page = await get(`/audit?entityId=${bankTransferId}`);
    expect(page).toContain(`href="/bank-transfers/${bankTransferId}"`);
    expect(visibleText(page)).toContain('Banka havalesi');
    for (const [type, words] of [
      ['risk_flag', 'Risk işareti'],
      ['erasure_request', 'Silme talebi'],
      ['legal_hold', 'Yasal saklama'],
    ])
      expect(page).toMatch(new RegExp(`<option value="${type}"\\s*>${words}</option>`));
  });
});

const LEDGER_SRC = fileURLToPath(new URL('../../ledger/src', import.meta.url));

/** Every audit action the ledger writes as a literal ('INTENT.APPROVED'), and those it builds from a status. */
function ledgerAuditActions(): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  const literal = files(LEDGER_SRC).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/'([A-Z_]+\.[A-Z_]+)'/g)].map((m) => m[1] as string),
  );
  // apply-arrival.ts writes INTENT.<status> for a deposit's move; sender-return.use-case.ts SENDER_RETURN.<status>.
  const built = ['INTENT.PENDING_REVIEW', 'INTENT.LATE_ARRIVAL', 'SENDER_RETURN.APPROVED', 'SENDER_RETURN.REJECTED', 'SENDER_RETURN.SENT'];
  return [...new Set([...literal, ...built])].sort();
}

describe('record words', () => {
  it('give every audit action the ledger writes a label in English and in Turkish', () => {
    const actions = ledgerAuditActions();
    expect(actions.length).toBeGreaterThan(30);
    const missing = actions.filter(
      (action) => !withLocale('en', () => actionLabel(action)) || !withLocale('tr', () => actionLabel(action)),
    );
    expect(missing).toEqual([]);
    expect(withLocale('tr', () => actionLabel('WITHDRAWAL.SENT'))).toBe('Çekim gönderildi');
    expect(actionLabel('SOMETHING.NEW')).toBeNull();
  });

  it('write waiting times in the request language, English as before', () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const cases: Array<[string, string, string]> = [
      ['2026-11-28T11:59:15Z', '45s', '45 sn'],
      ['2026-11-28T11:53:00Z', '7m', '7 dk'],
      ['2026-11-28T09:55:00Z', '2h 5m', '2 sa 5 dk'],
      ['2026-11-26T09:00:00Z', '2d 3h', '2 g 3 sa'],
    ];
    for (const [since, en, tr] of cases) {
      expect(withLocale('en', () => waitedText(since, now))).toBe(en);
      expect(withLocale('tr', () => waitedText(since, now))).toBe(tr);
    }
    expect(waitedText(null, now)).toBe('');
  });
});
