/**
 * Logging in, the operator's two-factor page, error pages and notices in Turkish: every word from the catalogue, the
 * language switch returning to the page it was pressed on, the ledger's own English words marked as such.
 */
import { describe, expect, it } from '@jest/globals';
import { totpCode } from '@kasa/testkit';
import { AREAS, MESSAGES, withLocale, type MessageKey } from '../src/i18n/index.js';
import { throttledMessage } from '../src/pages/login.page.js';
import { NOTICES, noticeText } from '../src/views/notices.js';
import { statusLabel } from '../src/views/components.js';
import { reasonTitle } from '../src/errors.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';
import { englishLeftovers, expectTurkish } from './i18n-pages.js';

const setup = useConsoleBrowser();
const TURKISH = { 'accept-language': 'tr-TR,tr;q=0.9' };

describe('the login page in Turkish', () => {
  it('asks for e-mail and password in Turkish, and its switch returns to it with the page to go on to', async () => {
    const { h } = setup;
    const res = await fetch(`${h.console.url}/login?next=${encodeURIComponent('/deposits')}`, { headers: TURKISH });
    expect(res.status).toBe(200);
    const page = await res.text();
    const text = expectTurkish(page);
    for (const word of ['E-posta', 'Parola', 'Giriş yap']) expect(text).toContain(word);
    expect(page).toContain('<title>Giriş · Kasa Konsol</title>');
    const back = encodeURIComponent('/login?next=%2Fdeposits');
    expect(page).toContain(`href="/language?to=en&amp;back=${back}"`);
    const switched = await fetch(`${h.console.url}/language?to=en&back=${back}`, { redirect: 'manual' });
    expect(switched.headers.get('location')).toBe('/login?next=%2Fdeposits');
    // Without a page to go on to, the switch returns to the plain login page.
    expect(await (await fetch(`${h.console.url}/login`, { headers: TURKISH })).text()).toContain('back=%2Flogin"');
  });

  it('says in Turkish that the operator signed out, or that the session ended', async () => {
    const { h } = setup;
    const notice = async (code: string) =>
      expectTurkish(await (await fetch(`${h.console.url}/login?notice=${code}`, { headers: TURKISH })).text());
    await expect(notice('signed-out')).resolves.toContain('Oturumunuz kapatıldı.');
    await expect(notice('expired')).resolves.toContain('Oturumunuz sona erdi (süresi doldu, iptal edildi ya da başka yerden kapatıldı).');
  });

  it('refuses a wrong password and a form from elsewhere in Turkish', async () => {
    const { h, reviewer } = setup;
    const context = await h.browser.newContext({ baseURL: h.console.url, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('E-posta').fill(reviewer.email);
    await page.getByLabel('Parola').fill('not-the-password');
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page.locator('.error-line').textContent()).resolves.toBe('E-posta veya parola hatalı ya da hesap devre dışı.');
    expectTurkish(await page.content());
    await context.close();

    const forged = await fetch(`${h.console.url}/login`, {
      method: 'POST',
      headers: { ...TURKISH, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: reviewer.email, password: reviewer.password }).toString(),
    });
    expect(forged.status).toBe(403);
    expect(expectTurkish(await forged.text())).toContain('Giriş formunun süresi doldu ya da bu konsoldan gönderilmedi.');
  });

  it('says how long to wait in Turkish, in seconds or minutes', () => {
    withLocale('tr', () => {
      expect(throttledMessage(1)).toBe('Çok fazla giriş denemesi. 1 saniye sonra yeniden deneyin.');
      expect(throttledMessage(59)).toBe('Çok fazla giriş denemesi. 59 saniye sonra yeniden deneyin.');
      expect(throttledMessage(61)).toBe('Çok fazla giriş denemesi. 2 dakika sonra yeniden deneyin.');
      expect(throttledMessage(null)).toBe('Çok fazla giriş denemesi. Birkaç dakika bekleyip yeniden deneyin.');
    });
  });
});

describe('two-factor authentication in Turkish', () => {
  it('sets it up, refuses a wrong code quoting the ledger in English, shows the recovery codes and turns it off', async () => {
    const { h } = setup;
    const operator = await h.createOperator('REVIEWER');
    const { context, page } = await loginInBrowser(h.browser, h.console.url, operator, '/account/2fa', 'tr-TR');
    await expect(page.locator('h1').textContent()).resolves.toBe('İki adımlı doğrulama');
    expect(expectTurkish(await page.content())).toContain('Girişte yalnızca parolanız sorulur.');

    await page.getByRole('button', { name: 'İki adımlı doğrulamayı kur' }).click();
    expect(expectTurkish(await page.content())).toContain('Bu kodu doğrulama uygulamanızla okutun.');
    await expect(page.locator('svg.qr').getAttribute('aria-label')).resolves.toBe('Doğrulama uygulamanız için QR kod');
    await page.getByLabel('Kod', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Aç', exact: true }).click();
    await expect(page.locator('.error h2').textContent()).resolves.toBe('Kod hatalı, süresi dolmuş ya da daha önce kullanılmış.');
    expectTurkish(await page.content());
    // The ledger's explanation is English: said so, and marked for screen readers.
    await expect(page.locator('.ledger-said > p').first().textContent()).resolves.toBe('Defter servisinin yanıtı (İngilizce):');
    await expect(page.locator('.ledger-said [lang="en"]').textContent()).resolves.toContain('The code is wrong');
    await expect(page.locator('main h1').textContent()).resolves.toBe('İşlem yapılamadı');

    await page.goto('/account/2fa');
    await page.getByRole('button', { name: 'İki adımlı doğrulamayı kur' }).click();
    const secret = (await page.locator('code.secret').textContent()) as string;
    await page.getByLabel('Kod', { exact: true }).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Aç', exact: true }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('İki adımlı doğrulama açık');
    const text = expectTurkish(await page.content());
    expect(text).toContain('Bu kurtarma kodlarını şimdi saklayın.');
    // The date in Turkish order (31.01.2026 15:00).
    expect(text).toMatch(/Açılış \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
    const recovery = await page.locator('ul.recovery-codes code').allTextContents();

    await page.goto('/account/2fa');
    expect(expectTurkish(await page.content())).toContain('Bu hesaba girişte doğrulama uygulamanızdaki kod sorulur.');
    // The page's confirm dialog is accepted by the context (loginInBrowser): the question is the catalogue's.
    await expect(page.locator('form[action="/account/2fa/disable"]').getAttribute('data-confirm')).resolves.toBe(
      'İki adımlı doğrulama kapatılsın mı?',
    );
    await page.locator('form[action="/account/2fa/disable"] input[name="code"]').fill(recovery[0] as string);
    await page.getByRole('button', { name: 'Kapat', exact: true }).click();
    await page.waitForURL('**/account/2fa?notice=two-factor-off');
    await expect(page.locator('.notice').textContent()).resolves.toBe('Hesabınızda iki adımlı doğrulama kapatıldı.');
    expectTurkish(await page.content());
    await context.close();
  });
});

describe('error pages in Turkish', () => {
  it('answers an unknown page and an unverified form in Turkish, the switch returning to the page asked for', async () => {
    const { h, reviewer } = setup;
    const { context, page } = await loginInBrowser(h.browser, h.console.url, reviewer, '/review', 'tr-TR');
    const missing = await page.goto('/no-such-page?x=1');
    expect(missing?.status()).toBe(404);
    await expect(page.locator('main h1').textContent()).resolves.toBe('Bulunamadı');
    const text = expectTurkish(await page.content());
    expect(text).toContain('Böyle bir sayfa yok.');
    expect(text).toContain('Aradığınızı bulmak için menüyü kullanın.');
    expect(text).toMatch(/İstek numarası: \S+/);
    await expect(page.locator('a.lang-switch').getAttribute('href')).resolves.toBe(
      `/language?to=en&back=${encodeURIComponent('/no-such-page?x=1')}`,
    );

    const forged = await page.request.post('/account/2fa/enroll', { form: { _csrf: 'forged' }, headers: TURKISH });
    expect(forged.status()).toBe(403);
    const refused = expectTurkish(await forged.text());
    expect(refused).toContain('Bu form doğrulanamadı.');
    expect(refused).toContain('Form bu konsol sayfasından gönderilmedi ya da süresi doldu (CSRF denetimi başarısız).');
    await context.close();
  });
});

describe('the words of login, errors, shared views and the page script', () => {
  const OWN = ['auth', 'errors', 'components', 'client'] as const;

  it('has Turkish for every key of its areas that is not the English text, and no English word in it', () => {
    const problems: string[] = [];
    for (const area of OWN) {
      for (const key of Object.keys(AREAS[area].en) as MessageKey[]) {
        const [en, tr] = [MESSAGES.en[key], MESSAGES.tr[key]];
        // Names and codes that read the same in both languages.
        if (en === tr && !/^[A-Z]+$/.test(en)) problems.push(`${key}: not translated`);
        for (const found of englishLeftovers(tr)) problems.push(`${key}: ${found}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every notice, ledger reason and status its Turkish words', () => {
    withLocale('tr', () => {
      for (const code of NOTICES) expect(noticeText(code)).toBe(MESSAGES.tr[`errors.notice.${code}`]);
      expect(noticeText('toString')).toBeNull();
      expect(reasonTitle('insufficient_balance')).toBe('Sitenin kullanılabilir bakiyesi bunu karşılamıyor.');
      expect(reasonTitle('no_such_reason')).toBeNull();
      expect(statusLabel('PENDING_REVIEW')).toBe('incelemede');
      expect(statusLabel('SET_ASIDE')).toBe('kenara ayrıldı');
      // A status the console does not know yet: as the ledger wrote it.
      expect(statusLabel('BRAND_NEW')).toBe('brand new');
    });
    withLocale('en', () => {
      expect(noticeText('signed-out')).toBe('You are signed out.');
      expect(statusLabel('AUTO_CANCELLED')).toBe('auto cancelled');
    });
  });
});
