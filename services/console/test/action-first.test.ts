/**
 * What needs an operator comes first, on a desktop and on a phone: the dashboard lists the queues with work (past
 * their waiting limit and faults first) before the empty ones, and the header's sections, cut on a phone, fade at the
 * cut and show the current one. Screenshots of the dashboard, a site's settings and the payouts, 1280 and 390 px
 * wide, in English and Turkish, go to /tmp/shots-settings for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import type { Page } from 'playwright-core';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';
import { expectTurkish } from './i18n-pages.js';

const SHOTS = '/tmp/shots-settings';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

/** A deposit whose money arrived: one item in "Deposits to review". */
async function pendingDeposit(amount: number): Promise<string> {
  const intent = await setup.h.createDeposit(setup.site, amount);
  expect((await setup.h.transfer(intent.referenceNo, amount)).status).toBe(201);
  return intent.intentId;
}

/** The dashboard's cards in page order: queue, tone and count. */
async function cards(page: Page): Promise<Array<{ queue: string; tone: string; count: number }>> {
  return (await page.evaluate(`[...document.querySelectorAll('main .queue-card')].map((card) => ({
    queue: card.getAttribute('data-queue'),
    tone: ['alert', 'busy', 'clear'].find((tone) => card.classList.contains(tone)),
    count: Number(card.querySelector('.count').firstChild.textContent),
  }))`)) as Array<{ queue: string; tone: string; count: number }>;
}

const RANK: Record<string, number> = { alert: 0, busy: 1, clear: 2 };

describe('the dashboard', () => {
  it('puts the queues with work first, past the limit before the rest, and the empty ones after', async () => {
    const { h, page } = setup;
    const late = await pendingDeposit(15000);
    // Its money arrived two hours ago: past REVIEW_WAIT_WARN_MINUTES (30 by default).
    await h.ledger.deps.db.deposit.update({ where: { id: late }, data: { awaitingReviewSince: new Date(Date.now() - 2 * 3_600_000) } });
    await page.goto('/');
    const shown = await cards(page);
    expect(shown.length).toBeGreaterThanOrEqual(11);
    const ranks = shown.map((card) => RANK[card.tone] as number);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(shown.filter((card) => card.count === 0).every((card) => card.tone === 'clear')).toBe(true);
    expect(shown[0]).toMatchObject({ queue: 'depositsToReview', tone: 'alert' });
    // The empty queues sit in their own group, after the one that needs action.
    await expect(page.locator('section.queue-group').first().locator('.queue-card.clear').count()).resolves.toBe(0);
    await expect(page.locator('.clear-cards .queue-card:not(.clear)').count()).resolves.toBe(0);
    await expect(axeFindings(page)).resolves.toEqual([]);
  });

  it('reads in Turkish for a Turkish browser', async () => {
    const { page } = setup;
    await pendingDeposit(16000);
    const text = expectTurkish(await (await page.request.get('/', { headers: { 'Accept-Language': 'tr-TR,tr;q=0.9' } })).text());
    for (const words of ['İşlem bekleyenler', 'İncelenecek yatırımlar', 'para geldi, karar bekliyor', 'Bekleyen yok', 'Türkiye saati'])
      expect(text).toContain(words);
  });
});

describe('the sections on a phone', () => {
  it('fade at the cut edge and show the current section, scrolled into view', async () => {
    const { h, admin } = setup;
    const { context, page } = await loginInBrowser(h.browser, h.console.url, admin, '/review');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/audit');
    // Cut: the strip is wider than the screen, and faded where it is cut.
    const strip = "document.querySelector('header.top nav')";
    expect(await page.evaluate(`${strip}.scrollWidth > ${strip}.clientWidth`)).toBe(true);
    expect(await page.evaluate(`getComputedStyle(${strip}).maskImage`)).toContain('linear-gradient');
    // The last section is current: the script scrolled the strip to it, so it is inside the strip's box.
    const inView = await page.evaluate(`(() => {
      const strip = document.querySelector('header.top nav').getBoundingClientRect();
      const current = document.querySelector('header.top nav a.current').getBoundingClientRect();
      return current.left >= strip.left && current.right <= strip.right + 1;
    })()`);
    expect(inView).toBe(true);
    expect(await page.evaluate(`${strip}.scrollLeft`)).toBeGreaterThan(0);
    // The page itself never scrolls sideways.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await context.close();
  });
});

describe('screenshots', () => {
  // Twelve full pages in two browsers: longer than a test's usual minute.
  it('of the dashboard, a site settings and the payouts, on a desktop and a phone, in English and Turkish', async () => {
    const { h, admin } = setup;
    const site = await h.createSite({ name: 'Örnek Bahis' });
    await h.ops('PATCH', `/sites/${site.siteId}`, { autoApprove: { enabled: true, maxAmount: '1000000', requireSenderMatch: true } });
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    await h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
    await h.fund(setup.site, 90000);
    const withdrawal = await h.createWithdrawal(setup.site, 40000);
    await h.ops('POST', `/withdrawals/${withdrawal.withdrawalId}/approve`, {});
    for (const locale of ['en-US', 'tr-TR'] as const) {
      const { context, page } = await loginInBrowser(h.browser, h.console.url, admin, '/review', locale);
      if (locale === 'en-US') {
        await page.goto('/payouts');
        await page.locator('form[action="/payouts"] button').click();
        await page.waitForURL('**/payouts/*');
      }
      const lang = locale === 'en-US' ? 'en' : 'tr';
      for (const [width, height, device] of [
        [1280, 900, 'desktop'],
        [390, 844, 'phone'],
      ] as const) {
        await page.setViewportSize({ width, height });
        for (const [name, path] of [
          ['dashboard', '/'],
          ['site-settings', `/sites/${site.siteId}`],
          ['payouts', '/payouts'],
        ] as const) {
          await page.goto(path);
          expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
          await page.screenshot({ path: `${SHOTS}/${name}-${device}-${lang}.png`, fullPage: true });
        }
      }
      await context.close();
    }
  }, 300_000);
});
