/** The console's language: chosen by the operator (remembered), else the browser's; a switch on every page. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@kasa/config';
import { startConsole, type ConsoleService } from '../src/index.js';
import { LANGUAGE_COOKIE } from '../src/i18n/locale.js';

// No ledger behind this console: the login page and the switch answer on their own.
let service: ConsoleService;
beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error', LEDGER_URL: 'http://127.0.0.1:9' });
  service = await startConsole(config, 0);
});
afterAll(async () => {
  await service?.stop();
});

async function loginPage(headers: Record<string, string>): Promise<{ lang: string | undefined; page: string; vary: string | null }> {
  const res = await fetch(`${service.url}/login`, { headers });
  const page = await res.text();
  return { lang: /<html lang="(\w+)"/.exec(page)?.[1], page, vary: res.headers.get('vary') };
}

describe('the console language', () => {
  it('speaks Turkish to a browser that prefers Turkish, English otherwise, and says the answer varies by it', async () => {
    await expect(loginPage({ 'accept-language': 'tr-TR,tr;q=0.9,en-US;q=0.8' })).resolves.toMatchObject({ lang: 'tr' });
    await expect(loginPage({ 'accept-language': 'en-US,en;q=0.9,tr;q=0.8' })).resolves.toMatchObject({ lang: 'en' });
    await expect(loginPage({ 'accept-language': 'de-DE,de;q=0.9' })).resolves.toMatchObject({ lang: 'en' });
    const plain = await loginPage({});
    expect(plain.lang).toBe('en');
    expect(plain.vary).toMatch(/Accept-Language/i);
    const turkish = await loginPage({ 'accept-language': 'tr' });
    expect(turkish.page).toContain('Kasa Konsol');
    // The switch offers the other language and returns to the page it was pressed on.
    expect(turkish.page).toMatch(/href="\/language\?to=en&amp;back=%2Flogin"/);
  });

  it("remembers the operator's choice over the browser's preference, for a year", async () => {
    const res = await fetch(`${service.url}/language?to=tr&back=${encodeURIComponent('/deposits?status=PENDING_REVIEW')}`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/deposits?status=PENDING_REVIEW');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${LANGUAGE_COOKIE}=tr; Max-Age=31536000; Path=/; Expires=[^;]+; HttpOnly; SameSite=Lax$`));
    const chosen = await loginPage({ cookie: `${LANGUAGE_COOKIE}=tr`, 'accept-language': 'en-US' });
    expect(chosen.lang).toBe('tr');
    await expect(loginPage({ cookie: `${LANGUAGE_COOKIE}=en`, 'accept-language': 'tr-TR' })).resolves.toMatchObject({ lang: 'en' });
    // A cookie value that is not a language is ignored.
    await expect(loginPage({ cookie: `${LANGUAGE_COOKIE}=xx`, 'accept-language': 'tr-TR' })).resolves.toMatchObject({ lang: 'tr' });
  });

  it('refuses an unknown language and never returns to another site', async () => {
    const unknown = await fetch(`${service.url}/language?to=de`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    for (const back of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const res = await fetch(`${service.url}/language?to=en&back=${encodeURIComponent(back)}`, { redirect: 'manual' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    }
  });
});
