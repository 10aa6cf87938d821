/**
 * Every state of the hosted deposit page, in Turkish and English, on a 375 px phone and a desktop: what it
 * says, that it fits (no sideways scroll, IBAN groups whole, 44 px touch targets), axe-core's verdict, and a
 * screenshot of each in /tmp/hosted-shots with KASA_SCREENSHOTS=1. Then the page following the deposit live, without a reload.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { launchChromium, makeTrIban } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// Screenshots only when asked for (KASA_SCREENSHOTS=1): they check nothing and cost a third of the tour's time.
const SHOTS = process.env.KASA_SCREENSHOTS === '1' ? '/tmp/hosted-shots' : null;
const VIEWPORTS = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 900 } } as const;
const INTERNAL_REASON = 'İç not: gönderen hesap AML listesinde, kullanıcıya söylemeyin';

let h: Harness;
let site: TestSite;
let shortLived: TestSite;
let browser: Browser;

// Transfers are on time or late by their receivedAt alone (no clock-skew allowance), so a late one is late.
beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  h = await startHarness({ ARRIVAL_CLOCK_SKEW_SECONDS: '0' });
  site = await h.createSite({ name: 'Örnek Bahis' });
  shortLived = await h.createSite({ name: 'Örnek Bahis', depositTtlSeconds: 1 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

const RETURN_URL = 'https://orneks-bahis.example/kasa/done';
const ops = (path: string, body: unknown) => h.ops('POST', `/ops/v1${path}`, body);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function deposit(amount = '80000', on: TestSite = site) {
  const created = await partner(h.gateway.url, on).createDeposit({ amount, returnUrl: RETURN_URL });
  expect(created.status).toBe(201);
  return created.body as { intentId: string; referenceNo: string; depositUrl: string };
}

async function transfer(referenceNo: string, amount: string) {
  const res = await ops('/bank-transfers', {
    bankTxId: `states-${referenceNo}-${amount}-${Date.now()}`,
    amount,
    senderName: 'Ayşe Yılmaz',
    senderIban: makeTrIban(5151),
    description: referenceNo,
    receivedAt: new Date().toISOString(),
  });
  expect(res.status).toBe(201);
}

const pathOf = (depositUrl: string) => new URL(depositUrl).pathname;

/** Each state's page, made through the real APIs: partner create, the page's own post, bank feed, ops review. */
async function makeStates(): Promise<Record<string, string>> {
  const waiting = await deposit();

  const confirmed = await deposit();
  const post = await request(h.gateway.url)
    .post(`${pathOf(confirmed.depositUrl)}/confirm`)
    .set('sec-fetch-site', 'same-origin');
  expect(post.status).toBe(303);

  const received = await deposit();
  await transfer(received.referenceNo, '80000');

  const approved = await deposit();
  await transfer(approved.referenceNo, '75000');
  expect((await ops(`/intents/${approved.intentId}/approve`, { amount: '75000' })).status).toBe(200);

  const rejected = await deposit();
  await transfer(rejected.referenceNo, '80000');
  expect((await ops(`/intents/${rejected.intentId}/reject`, { reason: INTERNAL_REASON })).status).toBe(200);

  // The operator picks what the user is told; the free-text reason still goes only to the partner.
  const rejectedWithReason = await deposit();
  await transfer(rejectedWithReason.referenceNo, '80000');
  const withReason = await ops(`/intents/${rejectedWithReason.intentId}/reject`, {
    reason: INTERNAL_REASON,
    userReason: 'SENDER_NOT_ACCOUNT_HOLDER',
  });
  expect(withReason.status).toBe(200);

  const expired = await deposit('80000', shortLived);
  const late = await deposit('80000', shortLived);
  await sleep(1300);
  await transfer(late.referenceNo, '80000');

  return {
    waiting: pathOf(waiting.depositUrl),
    confirmed: pathOf(confirmed.depositUrl),
    received: pathOf(received.depositUrl),
    'approved-partial': pathOf(approved.depositUrl),
    rejected: pathOf(rejected.depositUrl),
    'rejected-reason': pathOf(rejectedWithReason.depositUrl),
    expired: pathOf(expired.depositUrl),
    'late-arrival': pathOf(late.depositUrl),
    'unknown-link': `/deposit/${'Z'.repeat(43)}`,
  };
}

/** What each state must say, by language: [heading of the state or the message, a phrase of its body]. */
const EXPECTED: Record<string, Record<'tr' | 'en', [string, string]>> = {
  waiting: { tr: ['Para yatırma', 'Havaleyi yaptım'], en: ['Deposit', 'I have sent the transfer'] },
  confirmed: { tr: ['Para yatırma', 'Bildiriminizi aldık'], en: ['Deposit', 'Thank you, noted'] },
  received: { tr: ['Ödemeniz alındı', 'kontrol ediliyor'], en: ['Payment received', 'is being checked'] },
  'approved-partial': { tr: ['Yatırım tamamlandı', 'talep edilen 800,00 ₺'], en: ['Deposit complete', 'requested 800,00 ₺'] },
  rejected: {
    tr: ['Yatırım onaylanmadı', 'destek ekibine referans kodunu'],
    en: ['Deposit not approved', 'give support the reference code'],
  },
  'rejected-reason': {
    tr: ['Yatırım onaylanmadı', 'sizin adınıza olmayan bir hesaptan geldi'],
    en: ['Deposit not approved', 'an account that is not in your name'],
  },
  expired: { tr: ['Süre doldu', 'paranız kaybolmaz'], en: ['Time is up', 'it is not lost'] },
  'late-arrival': { tr: ['Ödemeniz alındı', 'süre dolduktan sonra ulaştı'], en: ['Payment received', 'arrived after the deadline'] },
  'unknown-link': { tr: ['Bağlantı geçersiz', 'yeni bir yatırım talebi'], en: ['Invalid link', 'create a new deposit request'] },
};

interface Layout {
  scrollWidth: number;
  splitGroups: string[];
  groupCount: number;
  smallTargets: string[];
  heading: string;
  text: string;
}

/** Layout facts: sideways scroll, IBAN groups drawn on more than one line, buttons and links under 44 px. */
async function layoutOf(page: Page): Promise<Layout> {
  return (await page.evaluate(`(() => {
    return {
      scrollWidth: document.scrollingElement.scrollWidth,
      groupCount: document.querySelectorAll('#iban .group').length,
      splitGroups: [...document.querySelectorAll('#iban .group')]
        .filter((g) => new Set([...g.getClientRects()].map((r) => Math.round(r.top))).size !== 1)
        .map((g) => g.textContent),
      smallTargets: [...document.querySelectorAll('button, main a')]
        .filter((el) => el.getBoundingClientRect().height < 44)
        .map((el) => el.outerHTML.slice(0, 60) + ' ' + el.getBoundingClientRect().height),
      heading: (document.getElementById('state-title') || document.querySelector('h1')).textContent.trim(),
      text: document.body.innerText,
    };
  })()`)) as Layout;
}

async function axeFindings(page: Page): Promise<string[]> {
  // Injected once per page load; a resized page is checked again with the same copy.
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: { id: string; impact: string | null }[];
  };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact})`);
}

describe('hosted deposit page, every state', () => {
  it('says the right thing in Turkish and English, fits a 375 px phone and a desktop, and passes axe-core', async () => {
    const states = await makeStates();
    const problems: string[] = [];
    for (const [state, path] of Object.entries(states)) {
      for (const lang of ['tr', 'en'] as const) {
        // One page load per state and language, checked at the desktop size and then, resized, at the phone's:
        // the page's layout is CSS alone (media queries re-apply on resize), so the resized page is the page a phone loads.
        // axe-core is injected by the test, so this context (only) lets it past the page's CSP.
        const context = await browser.newContext({
          viewport: VIEWPORTS.desktop,
          locale: lang === 'tr' ? 'tr-TR' : 'en-GB',
          bypassCSP: true,
        });
        const page = await context.newPage();
        await page.goto(`${h.gateway.url}${path}?lang=${lang}`);
        for (const device of ['desktop', 'phone'] as const) {
          const viewport = VIEWPORTS[device];
          await page.setViewportSize(viewport);
          const layout = await layoutOf(page);
          const [heading, phrase] = EXPECTED[state]![lang];
          const where = `${state} ${lang} ${device}`;
          if (layout.heading !== heading) problems.push(`${where}: heading "${layout.heading}", expected "${heading}"`);
          if (!layout.text.includes(phrase)) problems.push(`${where}: no "${phrase}"`);
          if (layout.text.includes('AML') || layout.text.includes('İç not')) problems.push(`${where}: the internal reason shows`);
          if (layout.scrollWidth > viewport.width) problems.push(`${where}: scrollWidth ${layout.scrollWidth}`);
          if (layout.splitGroups.length > 0) problems.push(`${where}: IBAN groups split ${layout.splitGroups.join(',')}`);
          if (layout.smallTargets.length > 0) problems.push(`${where}: small targets ${layout.smallTargets.join(' | ')}`);
          const expectsIban = state === 'waiting' || state === 'confirmed';
          if (expectsIban !== layout.groupCount >= 6) problems.push(`${where}: ${layout.groupCount} IBAN groups`);
          for (const finding of await axeFindings(page)) problems.push(`${where}: axe ${finding}`);
          if (SHOTS) await page.screenshot({ path: `${SHOTS}/${state}-${device}-${lang}.png`, fullPage: true });
        }
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);

  it('shows the credited amount of a partial approval and never the operator rejection reason, in the HTML itself', async () => {
    const approved = await deposit();
    await transfer(approved.referenceNo, '75000');
    expect((await ops(`/intents/${approved.intentId}/approve`, { amount: '75000' })).status).toBe(200);
    const page = await request(h.gateway.url).get(pathOf(approved.depositUrl));
    expect(page.text).toMatch(/id="credited">750,00 ₺</);
    expect(page.text).toContain('talep edilen 800,00 ₺');
    expect(page.text).not.toContain('>800,00 ₺<');
    const status = await request(h.gateway.url).get(`${pathOf(approved.depositUrl)}/status`);
    expect(status.body).toMatchObject({ status: 'APPROVED', creditedAmount: '75000' });

    const rejected = await deposit();
    await transfer(rejected.referenceNo, '80000');
    expect((await ops(`/intents/${rejected.intentId}/reject`, { reason: INTERNAL_REASON })).status).toBe(200);
    for (const path of [pathOf(rejected.depositUrl), `${pathOf(rejected.depositUrl)}/status`]) {
      const res = await request(h.gateway.url).get(path);
      expect(res.text).not.toContain('AML');
      expect(res.text).not.toContain('kullanıcıya');
    }
  });
});

describe('hosted deposit page, live', () => {
  it('follows the deposit without a reload: received, then approved with the credited amount announced', async () => {
    const created = await deposit();
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'tr-TR' });
    const page = await context.newPage();
    let loads = 0;
    page.on('load', () => (loads += 1));
    await page.goto(`${h.gateway.url}${pathOf(created.depositUrl)}`);
    // A mark on this document: a reload would make a new document without it.
    await page.evaluate('window.__sameDocument = true');

    await transfer(created.referenceNo, '75000');
    await page.locator('#state-title', { hasText: 'Ödemeniz alındı' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('#live').textContent()).resolves.toBe('Durum güncellendi: Ödemeniz alındı.');
    await expect(page.locator('#iban').count()).resolves.toBe(0);

    expect((await ops(`/intents/${created.intentId}/approve`, { amount: '75000' })).status).toBe(200);
    await page.locator('#state-title', { hasText: 'Yatırım tamamlandı' }).waitFor({ timeout: 15_000 });
    await expect(page.locator('#credited').textContent()).resolves.toBe('750,00 ₺');
    await expect(page.locator('#live').textContent()).resolves.toBe('Yatırım onaylandı: bakiyenize 750,00 ₺ eklendi.');
    await expect(page.evaluate('window.__sameDocument')).resolves.toBe(true);
    expect(loads).toBe(1);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/live-approved-phone-tr.png`, fullPage: true });
    await context.close();
  }, 60_000);

  it('turns into the expired page when the time runs out, without a reload', async () => {
    const site3 = await h.createSite({ name: 'Örnek Bahis', depositTtlSeconds: 3 });
    const created = await deposit('80000', site3);
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${h.gateway.url}${pathOf(created.depositUrl)}`);
    await page.evaluate('window.__sameDocument = true');
    await expect(page.locator('.countdown').textContent()).resolves.toMatch(/^0:0[0-3] left$/);
    await page.locator('#state-title', { hasText: 'Time is up' }).waitFor({ timeout: 15_000 });
    await expect(page.evaluate('window.__sameDocument')).resolves.toBe(true);
    await expect(page.locator('#iban').count()).resolves.toBe(0);
    await context.close();
  }, 30_000);

  it('counts down from the server time even when the device clock is an hour ahead', async () => {
    const created = await deposit();
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.clock.install({ time: new Date(Date.now() + 3_600_000) });
    await page.goto(`${h.gateway.url}${pathOf(created.depositUrl)}`);
    await page.clock.runFor(3000);
    await expect(page.locator('#countdown').textContent()).resolves.toMatch(/^(29|30):\d{2}$/);
    await expect(page.locator('#state-title').count()).resolves.toBe(0);
    await context.close();
  });

  it('records "I have sent the transfer" in place with JavaScript, once, and keeps saying so after a reload', async () => {
    const created = await deposit();
    const path = pathOf(created.depositUrl);
    const stored = () => h.ledger.deps.db.deposit.findUnique({ where: { id: created.intentId } });
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'en-GB' });
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST') posts.push(new URL(req.url()).pathname);
    });
    await page.goto(`${h.gateway.url}${path}`);
    await page.evaluate('window.__sameDocument = true');
    // A double tap: the button is disabled after the first, so one post leaves the page.
    await page.locator('#confirm').dblclick();
    await page.locator('#confirmed').waitFor();
    await expect(page.evaluate('window.__sameDocument')).resolves.toBe(true);
    await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe('confirmed');
    expect(posts).toEqual([`${path}/confirm`]);
    const first = await stored();
    expect(first?.userConfirmedAt).toBeInstanceOf(Date);
    expect(first?.status).toBe('RESERVED');
    expect(first?.amount).toBe(80000n);

    await page.reload();
    await expect(page.locator('#confirmed').textContent()).resolves.toContain('Thank you, noted');
    await expect(page.locator('#confirm').count()).resolves.toBe(0);
    // The copy buttons still work on content that came in place.
    await expect(page.locator('button.copy').count()).resolves.toBe(5);
    const again = await request(h.gateway.url).post(`${path}/confirm?lang=en`).set('sec-fetch-site', 'same-origin');
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(`${path}?lang=en`);
    const after = await stored();
    expect(after?.userConfirmedAt?.getTime()).toBe(first?.userConfirmedAt?.getTime());
    expect(after?.updatedAt.getTime()).toBe(first?.updatedAt.getTime());
    await context.close();
  });

  it('keeps the plain form post working with JavaScript off', async () => {
    const created = await deposit();
    const path = pathOf(created.depositUrl);
    const context = await browser.newContext({ viewport: VIEWPORTS.phone, locale: 'tr-TR', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${h.gateway.url}${path}`);
    // Without the script the first byte already shows the time left.
    await expect(page.locator('.countdown').textContent()).resolves.toMatch(/^(29|30):\d{2} kaldı$/);
    await Promise.all([page.waitForURL(/\?lang=tr$/), page.click('#confirm')]);
    await expect(page.locator('#confirmed').textContent()).resolves.toContain('Bildiriminizi aldık');
    expect((await h.ledger.deps.db.deposit.findUnique({ where: { id: created.intentId } }))?.userConfirmedAt).toBeInstanceOf(Date);
    await context.close();
  });
});

describe('hosted deposit page headers', () => {
  it('keeps the popup pattern open, refuses framing, and holds a tight CSP on every answer of the page', async () => {
    const created = await deposit();
    const path = pathOf(created.depositUrl);
    const answers = {
      page: await request(h.gateway.url).get(path),
      unknown: await request(h.gateway.url).get(`/deposit/${'Q'.repeat(43)}`),
      malformed: await request(h.gateway.url).get('/deposit/x'),
      crossSite: await request(h.gateway.url).post(`${path}/confirm`).set('sec-fetch-site', 'cross-site'),
      status: await request(h.gateway.url).get(`${path}/status`),
    };
    expect(answers.unknown.text).toBe(answers.malformed.text);
    expect(answers.crossSite.status).toBe(403);
    for (const [name, res] of Object.entries(answers)) {
      const csp = String(res.headers['content-security-policy']);
      expect({ name, coop: res.headers['cross-origin-opener-policy'] }).toEqual({ name, coop: 'unsafe-none' });
      expect({ name, xfo: res.headers['x-frame-options'] }).toEqual({ name, xfo: 'DENY' });
      expect({ name, nosniff: res.headers['x-content-type-options'] }).toEqual({ name, nosniff: 'nosniff' });
      expect({ name, referrer: res.headers['referrer-policy'] }).toEqual({ name, referrer: 'no-referrer' });
      expect({ name, cache: res.headers['cache-control'] }).toEqual({ name, cache: 'no-store' });
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ]) {
        expect({ name, has: csp.includes(directive), directive }).toEqual({ name, has: true, directive });
      }
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    }
    expect(answers.status.body).toEqual({
      status: 'RESERVED',
      expiresAt: expect.any(String),
      secondsLeft: expect.any(Number),
      creditedAmount: null,
      userConfirmed: false,
    });
  });
});
