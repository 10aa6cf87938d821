import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { launchChromium, makeTrIban } from '@kasa/testkit';
import { formatTry } from '@kasa/money';
import { groupIban } from '../src/deposit-page/render.js';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness();
  site = await h.createSite({ name: 'Örnek Bahis' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

const pagePath = (depositUrl: string) => new URL(depositUrl).pathname;

/** What Chromium reports about the page's CSP: a refused script, style or request is a console message. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) seen.push(message.text());
  });
  return seen;
}

/** True when deposit-page.css applied: the card's rounded corners come only from it. */
const styled = (page: Page) => page.evaluate("getComputedStyle(document.querySelector('main')).borderRadius === '12px'");

describe('hosted deposit page', () => {
  it('formats kurus as Turkish lira without floating point', () => {
    expect(formatTry('150000')).toBe('1.500,00 ₺');
    expect(formatTry('100000000')).toBe('1.000.000,00 ₺');
    expect(formatTry('1005')).toBe('10,05 ₺');
    expect(groupIban('TR330006100519786457841326')).toBe('TR33 0006 1005 1978 6457 8413 26');
  });

  it('shows amount, bank details and reference in the first byte, without JavaScript', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '150000' });
    const res = await request(h.gateway.url).get(pagePath(created.body.depositUrl));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.text).toContain('1.500,00 ₺');
    expect(res.text).toContain(created.body.referenceNo);
    expect(res.text).toContain('Test Bankası');
    expect(res.text).toContain('Örnek Bahis');
    const account = (await h.ops('GET', '/ops/v1/receiving-accounts')).body.data[0];
    // The IBAN in groups of four, each group its own unbreakable element.
    expect(res.text.replace(/<span class="group">([A-Z0-9]{1,4})<\/span>\s*/g, '$1 ')).toContain(groupIban(account.iban));
  });

  it('renders in Chromium with a working countdown and copy buttons', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '250050' });
    const context = await browser.newContext({ locale: 'tr-TR' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.gateway.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const violations = cspViolations(page);
    await page.goto(`${h.gateway.url}${pagePath(created.body.depositUrl)}`);
    await expect(styled(page)).resolves.toBe(true);
    await expect(page.locator('#reference').textContent()).resolves.toBe(created.body.referenceNo);
    await expect(page.locator('#amount').textContent()).resolves.toBe('2.500,50 ₺');
    // Page functions run in the browser; as strings they need no DOM types in this Node project.
    // The script counts down from the server's seconds-left: a second later it shows less than the first byte did.
    const first = await page.locator('.countdown').textContent();
    expect(first).toMatch(/^(29|30):\d{2} kaldı$/);
    // (A locator, not waitForFunction: this page's CSP rightly refuses evaluating a string in it.)
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const later = await page.locator('.countdown').textContent();
    expect(later).toMatch(/^(29|30):\d{2} kaldı$/);
    expect(later).not.toBe(first);
    await page.locator('#reference + button.copy').click();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(created.body.referenceNo);
    await expect(page.locator('#reference + button.copy').textContent()).resolves.toBe('Kopyalandı');
    await page.screenshot({ path: '/tmp/kasa-deposit-page.png', fullPage: true });
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('serves the page under a strict CSP, with its script and stylesheet from its own origin', async () => {
    const created = await partner(h.gateway.url, site).createDeposit();
    const res = await request(h.gateway.url).get(pagePath(created.body.depositUrl));
    const csp = String(res.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<style|style=|<script(?![^>]*\ssrc=)/);
    expect(res.text).toContain('<link rel="stylesheet" href="/deposit/assets/deposit-page.css" />');
    expect(res.text).toContain('<script src="/deposit/assets/deposit-page.js" defer></script>');

    const css = await request(h.gateway.url).get('/deposit/assets/deposit-page.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toBe('public, max-age=300');
    expect(css.text).toContain('main {');
    const script = await request(h.gateway.url).get('/deposit/assets/deposit-page.js');
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=300');
  });

  it('shows every state styled and without CSP violations, following the payment live', async () => {
    const ops = (path: string, body: unknown) => h.ops('POST', `/ops/v1${path}`, body);
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '75000' });
    const context = await browser.newContext({ viewport: { width: 800, height: 640 }, locale: 'tr-TR' });
    const page = await context.newPage();
    const violations = cspViolations(page);
    const url = `${h.gateway.url}${pagePath(created.body.depositUrl)}`;

    await page.goto(url);
    await expect(styled(page)).resolves.toBe(true);
    await page.screenshot({ path: '/tmp/deposit-page-waiting.png' });

    // The open page polls its status URL (connect-src 'self') and reloads itself when the transfer arrives.
    const transfer = await ops('/bank-transfers', {
      bankTxId: `dp-${created.body.intentId}`,
      amount: '75000',
      senderName: 'Ayşe Yılmaz',
      senderIban: makeTrIban(4242),
      description: created.body.referenceNo,
      receivedAt: new Date().toISOString(),
    });
    expect(transfer.status).toBe(201);
    // A locator waits without evaluating a string in the page, which this page's CSP (rightly) refuses.
    await page.locator('#state-title', { hasText: 'Ödemeniz alındı' }).waitFor({ timeout: 15000 });
    await expect(styled(page)).resolves.toBe(true);
    await page.screenshot({ path: '/tmp/deposit-page-received.png' });

    expect((await ops(`/intents/${created.body.intentId}/approve`, {})).status).toBe(200);
    await page.goto(url);
    await expect(page.locator('#state-title').textContent()).resolves.toBe('Yatırım tamamlandı');
    await expect(styled(page)).resolves.toBe(true);
    await page.screenshot({ path: '/tmp/deposit-page-approved.png' });

    const shortLived = await h.createSite({ depositTtlSeconds: 1 });
    const expired = await partner(h.gateway.url, shortLived).createDeposit();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await page.goto(`${h.gateway.url}${pagePath(expired.body.depositUrl)}`);
    await expect(page.locator('#state-title').textContent()).resolves.toBe('Süre doldu');
    await expect(styled(page)).resolves.toBe(true);
    await page.screenshot({ path: '/tmp/deposit-page-expired.png' });

    expect(violations).toEqual([]);
    await context.close();
  });

  it('stops showing bank details once the intent has expired (410)', async () => {
    const shortLived = await h.createSite({ depositTtlSeconds: 1 });
    const created = await partner(h.gateway.url, shortLived).createDeposit();
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const res = await request(h.gateway.url).get(pagePath(created.body.depositUrl));
    expect(res.status).toBe(410);
    expect(res.text).toContain('Süre doldu');
    expect(res.text).not.toContain('IBAN');
    const status = await request(h.gateway.url).get(`${pagePath(created.body.depositUrl)}/status`);
    expect(status.body.status).toBe('AUTO_CANCELLED');
  });

  it('answers an unknown or malformed token with a 404 page that reveals nothing', async () => {
    const unknown = await request(h.gateway.url).get(`/deposit/${'A'.repeat(43)}`);
    const malformed = await request(h.gateway.url).get('/deposit/short');
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(unknown.text).toBe(malformed.text);
  });

  it('serves a live status for the page script', async () => {
    const created = await partner(h.gateway.url, site).createDeposit();
    const res = await request(h.gateway.url).get(`${pagePath(created.body.depositUrl)}/status`);
    expect(res.body).toEqual({
      status: 'RESERVED',
      expiresAt: created.body.expiresAt,
      secondsLeft: expect.any(Number),
      creditedAmount: null,
      userConfirmed: false,
    });
    expect(res.body.secondsLeft).toBeGreaterThan(1790);
    expect(res.body.secondsLeft).toBeLessThanOrEqual(1800);
  });
});
