/**
 * The money pages in Turkish: balances, reconciliation, receiving accounts and statement import answer a browser that
 * prefers Turkish with their columns, hints, forms, confirm texts and titles in Turkish and no English sentence left;
 * an imported line's outcome and the ledger's reasons for it are in Turkish by their codes, and the upload's own
 * refusals too. English pages keep the ledger's words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { STATEMENT_FILE_FORMATS } from '@kasa/contracts';
import { makeTrIban } from '@kasa/testkit';
import { UNMATCHED_REASON_TEXTS } from '../../ledger/src/bank-transfers/arrival.js';
import { MATCH_REASON_TEXTS } from '../../ledger/src/bank-transfers/matching.js';
import { STRAIGHT_THROUGH_REFUSALS } from '../../ledger/src/bank-transfers/straight-through.js';
import type { SafeHtml } from '@kasa/html';
import { withLocale } from '../src/i18n/index.js';
import { reasonText } from '../src/pages/statements.page.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { expectTurkish, visibleText } from './i18n-pages.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });
const TURKISH = 'tr-TR,tr;q=0.9';
const SAMPLES = new URL('../../../packages/statements/test/samples/', import.meta.url);
const CAMT = readFileSync(new URL('camt053-v02.xml', SAMPLES), 'utf8');
const MT940_ONE_INCOMPLETE = readFileSync(new URL('mt940-one-incomplete.sta', SAMPLES), 'utf8');

/** A page as the logged-in admin's browser gets it, asking for `language`. */
async function get(path: string, language = TURKISH, status = 200): Promise<string> {
  const res = await setup.page.request.get(path, { headers: { 'accept-language': language } });
  expect(res.status()).toBe(status);
  return res.text();
}

/** The values of one attribute (data-confirm, placeholder, data-label, title) across the page. */
function attributes(page: string, name: string): string[] {
  return [...page.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => visibleText(m[1] ?? ''));
}

/** A receiving account of its own, with a fresh IBAN. */
async function newAccount(bankName = 'Garanti BBVA'): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName, holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

/** The statement form sent as the browser sends it (multipart, with the session's CSRF token), in `language`. */
async function upload(account: string, file: { name: string; mimeType: string; buffer: Buffer }, language = TURKISH) {
  const form = await get('/statements', language);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
  const res = await setup.page.request.post('/statements', {
    headers: { 'accept-language': language },
    multipart: { _csrf: csrf, _back: '/statements', account, format: '', file },
  });
  return { status: res.status(), page: await res.text() };
}

/** The sample's first statement only, onto `iban`, its bank references made unique, paying `reference`. */
function camt(iban: string, reference: string): string {
  const [head] = CAMT.split('    <Stmt>\n      <Id>GAR-20250314-0555666');
  return `${head}  </BkToCstmrStmt>\n</Document>\n`
    .replaceAll('TR18 0006 2001 1900 0006 6723 15', iban)
    .replaceAll('GB25073', `G${Math.floor(Math.random() * 1e6)}`)
    .replaceAll('KD7MX4Q2RH', reference);
}

/** The text of the section holding the import's result, and of the error section above the form. */
const section = (page: string, cls: string) => visibleText(new RegExp(`<section class="${cls}"[\\s\\S]*?</section>`).exec(page)?.[0] ?? '');

describe('money pages in Turkish', () => {
  it('show the balances with their columns and hint', async () => {
    const page = await get('/balances');
    const text = expectTurkish(page);
    expect(page).toContain('<title>Bakiyeler · Kasa Konsol</title>');
    expect(text).toContain('Kullanılabilir, sitenin şu anda ödeyebileceği tutardır');
    expect(attributes(page, 'data-label')).toEqual(
      expect.arrayContaining(['Ad', 'Kullanılabilir', 'Bloke', 'Toplam gelen', 'Toplam ödenen']),
    );
    expect(text).not.toMatch(/Available|Reserved|Received in total/);
  });

  it('show the receiving accounts, their forms and confirm texts, and an account in detail', async () => {
    const account = await newAccount('Yapı Kredi');
    const list = await get('/receiving-accounts');
    const text = expectTurkish(list);
    expect(list).toContain('<title>Banka hesapları · Kasa Konsol</title>');
    for (const words of [
      'Hizmetin kendi banka hesapları.',
      'Yeni tahsilat hesabı',
      'Hesap sahibi',
      'Şube kodu',
      'Tahsilat hesabı ekle',
      'Düzenle',
    ])
      expect(text).toContain(words);
    expect(text).toMatch(/Yapı Kredi Kasa A\.Ş\. TR\d{24} yok yok evet/);
    expect(attributes(list, 'data-confirm')).toEqual(['Bu tahsilat hesabı eklensin mi? Yatırımlar sırayla bu hesaba da yönlendirilir.']);
    expect(attributes(list, 'data-label')).toEqual(expect.arrayContaining(['Banka', 'Hesap numarası', 'Şube', 'Aktif']));
    expect(text).not.toMatch(/Account holder|Branch code|New receiving account|\bEdit\b/);

    const detail = await get(`/receiving-accounts/${account.id}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain('<title>Yapı Kredi: tahsilat hesabı · Kasa Konsol</title>');
    expect(facts).toContain('Her değişiklik denetim kaydında görünür.');
    expect(detail).toMatch(/<a href="\/audit\?entityType=receiving_account&amp;entityId=[^"]+">denetim kaydında<\/a>/);
    expect(facts).toContain('Hesabı kaydet');
    expect(attributes(detail, 'data-confirm')).toEqual([
      'Bu tahsilat hesabındaki değişiklikler kaydedilsin mi? Değişiklik denetim kaydına yazılır.',
    ]);

    const missing = await get('/receiving-accounts/00000000-0000-4000-8000-000000000000', TURKISH, 404);
    expect(visibleText(missing)).toContain('Bu kimlikte bir tahsilat hesabı yok.');
  });

  it("show reconciliation in Turkish: the list, an account without a statement, and an account's lines and counts", async () => {
    const { h } = setup;
    const tag = `M${Math.floor(Math.random() * 1e8)}`;
    const account = await newAccount();
    const row = (at: string, direction: string, amount: string, txId = '') =>
      `${account.iban},${tag}-S1,${at},${direction},${amount},TRY,${txId},${txId ? 'AYŞE YILMAZ' : ''},,${txId ? 'HAVALE' : ''},,`;
    const csv = [
      'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
      row('2025-03-14T00:00:00Z', 'opening', '1000.00'),
      row('2025-03-14T09:00:00Z', 'credit', '200.00', `${tag}-L1`),
      row('2025-03-14T23:59:59Z', 'closing', '1200.00'),
    ].join('\n');
    const imported = await upload(account.id, { name: 'gun.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    expect(imported.status).toBe(200);
    const posted = await h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [
        {
          bankTxId: `${tag}-EXTRA`,
          direction: 'credit',
          amount: '7500',
          currency: 'TRY',
          receivedAt: '2025-03-14T12:00:00.000Z',
          senderName: 'Ali Kaya',
          senderIban: makeTrIban(3),
          description: 'elle girildi',
        },
      ],
    });
    expect(posted.status).toBe(201);

    const list = await get('/reconciliation');
    const text = expectTurkish(list);
    expect(list).toContain('<title>Mutabakat · Kasa Konsol</title>');
    expect(text).toContain('Her tahsilat hesabının son ekstre kapanış bakiyesi');
    // The harness's own account has no statement: the reason is said in Turkish by its status, in English as the ledger wrote it.
    expect(text).toContain('Bu hesabın hiçbir ekstresi yüklenmedi; mutabakat için bir ekstre yükleyin.');
    expect(visibleText(await get('/reconciliation', 'en-US'))).toContain(
      'No statement of this account has been imported; import one to reconcile against.',
    );
    expect(attributes(list, 'data-label')).toEqual(
      expect.arrayContaining(['Hesap', 'Ekstre kapanışı', 'Kasa kaydı', 'Fark', 'Tarih itibarıyla', 'Teyitsiz satırlar', 'Boşluklar']),
    );

    const detail = await get(`/reconciliation/${account.id}`);
    const facts = expectTurkish(detail);
    expect(detail).toContain('<title>Mutabakat · Garanti BBVA · Kasa Konsol</title>');
    for (const words of [
      '← Tüm hesaplar',
      'Ekstre kapanış bakiyesi 1.200,00 ₺',
      'Fark -75,00 ₺',
      'Ekstrelerden 1 alacak ve 0 borç; hiçbir ekstrede olmayan 1 alacak ve 0 borç',
      'Hiçbir ekstrede olmayan satırlar',
      `14.03.2025 15:00:00 alacak ${tag}-EXTRA Ali Kaya 75,00 ₺`,
      'Yok: her ekstre, bir öncekinin kapandığı bakiyeyle açılıyor.',
    ])
      expect(facts).toContain(words);
    expect(visibleText(await get(`/reconciliation/${account.id}`, 'en-US'))).toContain(
      '1 credit and 0 debits from statements; 1 credit and 0 debits no statement carries',
    );
  });

  it('import a statement and say what became of each line, and why, in Turkish', async () => {
    const { h, site } = setup;
    const account = await newAccount();
    const deposit = await h.createDeposit(site, 150000);

    const form = await get('/statements');
    const formText = expectTurkish(form);
    expect(form).toContain('<title>Ekstre yükle · Kasa Konsol</title>');
    for (const words of ['Tahsilat hesabı', 'Ekstre dosyası', 'En çok 16 MiB.', 'Dosya uzantısına göre', 'Kasa CSV', 'Ekstreyi yükle'])
      expect(formText).toContain(words);

    const file = { name: 'gun.xml', mimeType: 'application/xml', buffer: Buffer.from(camt(account.iban, deposit.referenceNo)) };
    const { status, page } = await upload(account.id, file);
    expect(status).toBe(200);
    const text = expectTurkish(page);
    const result = section(page, 'card import-result');
    expect(result).toMatch(/^camt\.053 ekstresi yüklendi: GAR-20250314-6672315/);
    for (const words of ['Satır', 'Yeni', 'Mükerrer', 'Eşleşen 1', 'Eşleşmeyen', 'Doğrudan onaylanan', 'Her satır: nereye gitti, neden'])
      expect(result).toContain(words);
    // The deciding reason first (the straight-through rule's), then matching's; each by its code.
    expect(result).toContain(
      'eşleşti Yatırımını karşıladı; yatırım bir operatörü bekliyor: bu sitede doğrudan onay kapalı; ' +
        'açıklamada yatırımın referansı var; tutar, yatırımın tutarıyla birebir aynı.',
    );
    expect(result).toContain('eşleşmedi Eşleşmeyenler kuyruğunda: açıklamada yatırım referansı yok.');
    expect(result).toContain('borç Çıkan para: bu hesabın hiçbir toplu ödemesi bu borçla eşleşmiyor.');
    expect(result).toContain('borç Çıkan para: bir ters kayıt: hiçbir ödemeyi gönderildi saymaz.');
    expect(text).toContain('Eşleşmeyenler kuyruğu →');
    expect(attributes(page, 'data-label')).toEqual(expect.arrayContaining(['İşlem tarihi', 'Sonuç', 'Neden', 'Yatırım veya ödeme']));
    expect(result).not.toMatch(/straight-through|the description|waits for an operator/);

    // The same file again: every line known, nothing changed, said in Turkish.
    const again = await upload(account.id, file);
    expect(again.status).toBe(200);
    const known = section(again.page, 'card import-result');
    expect(known).toContain('Bu dosyanın her satırı daha önce yüklenmişti; hiçbir şey değişmedi.');
    expect(known).toContain('bilinen Daha önce yüklendi.');
    expectTurkish(again.page);
  });

  it("says in Turkish which statements of a file could not be read, where they start, and keeps the reader's reason", async () => {
    const account = await newAccount();
    const tag = `P${Math.floor(Math.random() * 1e6)}`;
    const file = MT940_ONE_INCOMPLETE.replaceAll('TR180006200119000006672315', account.iban).replaceAll(':20:GAR', `:20:${tag}`);
    const { status, page } = await upload(account.id, { name: 'parca.sta', mimeType: 'text/plain', buffer: Buffer.from(file) });
    expect(status).toBe(200);
    const notice = visibleText(/<div class="warn" role="alert">[\s\S]*?<\/div>/.exec(page)?.[0] ?? '');
    expect(notice).toMatch(/^Kısmen yüklendi: Bu dosyadaki 1 ekstre okunamadı ve bunlardan hiçbir şey yüklenmedi\./);
    // The place is said in Turkish; the reader's reason is its own free text, marked English.
    expect(notice).toMatch(new RegExp(`${tag}\\d+/00325/001 \\(\\d+\\. satır\\):`));
    expect(page).toMatch(/\(\d+\. satır\): <span lang="en">[^<]*:62F:[^<]*<\/span>/);
    expectTurkish(page);
    expect(section(page, 'card import-result')).toContain('borç Çıkan para');
  });

  it('refuses a file in Turkish: no format, unreadable at a line, too large, and a form it cannot read', async () => {
    const account = await newAccount();
    const unknown = await upload(account.id, { name: 'ekstre.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF') });
    expect(unknown.status).toBe(400);
    expectTurkish(unknown.page);
    expect(section(unknown.page, 'error')).toBe(
      `Bu dosya hangi biçimde? Biçimini seçin: dosya adı şu uzantılardan hiçbiriyle bitmiyor: ${STATEMENT_FILE_FORMATS.flatMap((f) => f.extensions).join(', ')}.`,
    );

    const broken = await upload(account.id, {
      name: 'bozuk.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(camt(account.iban, 'X').replace('</Stmt>', '')),
    });
    expect(broken.status).toBe(400);
    // Where, in Turkish; what the XML reader found, in its own words marked English; then that nothing was imported.
    expectTurkish(broken.page);
    expect(broken.page).toMatch(/<h2>Dosya okunamıyor: \d+\. satır: <span lang="en">malformed XML: [^<]+<\/span>\.<\/h2>/);
    expect(section(broken.page, 'error')).toMatch(/Hiçbir şey yüklenmedi\.$/);

    // Another account's statement: refused, the ledger's explanation (naming both accounts) quoted in English.
    const other = await upload(account.id, {
      name: 'baska.xml',
      mimeType: 'application/xml',
      buffer: Buffer.from(camt(makeTrIban(Math.floor(Math.random() * 1e9)), 'X')),
    });
    expect(other.status).toBe(422);
    expectTurkish(other.page);
    expect(section(other.page, 'error')).toBe('Ekstre reddedildi; hiçbir şey yüklenmedi. Defter servisinin yanıtı (İngilizce):');
    expect(other.page).toMatch(
      /<p lang="en">Statement GAR-20250314-6672315 is of account TR\*\*…\d{4}, [^<]*; nothing was imported\.<\/p>/,
    );

    const big = await upload(account.id, { name: 'buyuk.csv', mimeType: 'text/csv', buffer: Buffer.alloc(17 * 1024 * 1024, 'a') });
    expect(big.status).toBe(413);
    expect(visibleText(big.page)).toContain('Dosya 16 MiB sınırını aşıyor; dönemlere bölün.');

    const res = await setup.page.request.post('/statements', {
      headers: { 'accept-language': TURKISH, 'content-type': 'multipart/form-data' },
      data: 'dosya',
    });
    expect(res.status()).toBe(400);
    expect(visibleText(await res.text())).toContain('Form okunamadı.');
  });

  it("has Turkish words for every reason code the ledger gives a line, and keeps the ledger's words in English", () => {
    const shown = (value: string | SafeHtml) => (typeof value === 'string' ? value : value.value);
    const codes = [...Object.keys(MATCH_REASON_TEXTS), ...Object.keys(UNMATCHED_REASON_TEXTS), ...Object.keys(STRAIGHT_THROUGH_REFUSALS)];
    const untranslated = codes.filter((code) =>
      shown(withLocale('tr', () => reasonText({ code, text: 'ledger words' }))).includes('ledger'),
    );
    expect(untranslated).toEqual([]);
    expect(withLocale('en', () => reasonText({ code: 'rule_off', text: 'straight-through is off for this site' }))).toBe(
      'straight-through is off for this site',
    );
    // A code the console does not know, and a skipped approval's cause, keep the ledger's words, marked English.
    expect(shown(withLocale('tr', () => reasonText({ code: 'brand_new', text: 'ledger <words>' })))).toBe(
      '<span lang="en">ledger &lt;words&gt;</span>',
    );
    expect(shown(withLocale('tr', () => reasonText({ code: 'approval_skipped', text: 'rejected by an operator' })))).toBe(
      'doğrudan onaylanmadı: <span lang="en">rejected by an operator</span>',
    );
  });
});
