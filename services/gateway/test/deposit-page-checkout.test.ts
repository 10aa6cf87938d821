/**
 * The hosted deposit page as an end user on a phone meets it, and as a partner page opening it in a popup:
 * grouped IBAN, touch targets, no sideways scrolling at 375 px, the credited amount after a partial approval,
 * a styled page for dead links, axe-core's verdict, and the SPEC's popup pattern from another origin.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { launchChromium, makeTrIban } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 375, height: 812 };

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

const pageUrl = (depositUrl: string) => `${h.gateway.url}${new URL(depositUrl).pathname}`;
const ops = (path: string, body: unknown) => h.ops('POST', `/ops/v1${path}`, body);

/** Serious and critical axe-core findings on the page as it is now (axe runs in a CSP-bypassing context). */
async function axeFindings(url: string, viewport = PHONE): Promise<string[]> {
  const context = await browser.newContext({ viewport, bypassCSP: true, locale: 'tr-TR' });
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: { id: string; impact: string | null; nodes: unknown[] }[];
  };
  await context.close();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact})`);
}

/** Layout facts of a phone-sized page: sideways scrolling, IBAN groups split over lines, small buttons. */
async function phoneLayout(page: Page) {
  return (await page.evaluate(`(() => ({
    scrollWidth: document.scrollingElement.scrollWidth,
    groups: [...document.querySelectorAll('#iban .group')].map((g) => ({ text: g.textContent, lines: g.getClientRects().length })),
    buttonHeights: [...document.querySelectorAll('button.copy')].map((b) => b.getBoundingClientRect().height),
  }))()`)) as { scrollWidth: number; groups: { text: string; lines: number }[]; buttonHeights: number[] };
}

async function receiveTransfer(intentId: string, referenceNo: string, amount: string) {
  const transfer = await ops('/bank-transfers', {
    bankTxId: `checkout-${intentId}`,
    amount,
    senderName: 'Ayşe Yılmaz',
    senderIban: makeTrIban(4343),
    description: referenceNo,
    receivedAt: new Date().toISOString(),
  });
  expect(transfer.status).toBe(201);
}

describe('hosted deposit page on a phone', () => {
  it('fits 375 px with no sideways scroll, IBAN groups of four never split, and 44 px copy buttons', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '80000' });
    const context = await browser.newContext({ viewport: PHONE, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto(pageUrl(created.body.depositUrl));
    const layout = await phoneLayout(page);
    expect(layout.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(layout.groups.length).toBeGreaterThanOrEqual(6);
    expect(layout.groups.filter((g) => g.lines !== 1)).toEqual([]);
    expect(layout.groups.every((g) => /^[A-Z0-9]{1,4}$/.test(g.text))).toBe(true);
    expect(layout.buttonHeights.length).toBe(5);
    expect(Math.min(...layout.buttonHeights)).toBeGreaterThanOrEqual(44);
    // The countdown is large text, not a footnote.
    const countdownSize = (await page.evaluate("parseFloat(getComputedStyle(document.getElementById('countdown')).fontSize)")) as number;
    expect(countdownSize).toBeGreaterThanOrEqual(20);
    await page.screenshot({ path: '/tmp/kasa-hosted-phone-waiting.png', fullPage: true });
    await context.close();
    expect(await axeFindings(pageUrl(created.body.depositUrl))).toEqual([]);
  });

  it('shows the credited amount, not the requested one, after a partial approval', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '80000' });
    await receiveTransfer(created.body.intentId, created.body.referenceNo, '75000');
    expect((await ops(`/intents/${created.body.intentId}/approve`, { amount: '75000' })).status).toBe(200);
    const res = await request(h.gateway.url).get(new URL(created.body.depositUrl).pathname);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Yatırım tamamlandı');
    expect(res.text).toMatch(/id="credited">750,00 ₺</);
    expect(res.text).toContain('talep edilen 800,00 ₺');
    const context = await browser.newContext({ viewport: PHONE, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto(pageUrl(created.body.depositUrl));
    await expect(page.locator('#credited').textContent()).resolves.toBe('750,00 ₺');
    await page.screenshot({ path: '/tmp/kasa-hosted-phone-approved-partial.png', fullPage: true });
    await context.close();
    expect(await axeFindings(pageUrl(created.body.depositUrl))).toEqual([]);
  });

  it('answers a dead link with a styled, phone-ready page that names nothing', async () => {
    const res = await request(h.gateway.url).get(`/deposit/${'B'.repeat(43)}`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
    expect(res.text).toContain('<link rel="stylesheet" href="/deposit/assets/deposit-page.css" />');
    expect(res.text).not.toContain('Örnek Bahis');
    const context = await browser.newContext({ viewport: PHONE, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto(`${h.gateway.url}/deposit/${'B'.repeat(43)}`);
    // The stylesheet applied: on a phone the page is one white sheet as wide as the screen.
    await expect(page.evaluate('getComputedStyle(document.body).backgroundColor')).resolves.toBe('rgb(255, 255, 255)');
    await expect(page.evaluate("document.querySelector('main').getBoundingClientRect().width")).resolves.toBe(375);
    await context.close();
    expect(await axeFindings(`${h.gateway.url}/deposit/${'B'.repeat(43)}`)).toEqual([]);
  });

  it('speaks Turkish by default, English by Accept-Language, and switches with its language link', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '80000' });
    const path = new URL(created.body.depositUrl).pathname;
    const turkish = await request(h.gateway.url).get(path);
    expect(turkish.text).toContain('<html lang="tr">');
    expect(turkish.text).toContain('Kopyala');
    expect(turkish.headers.vary).toContain('Accept-Language');
    const english = await request(h.gateway.url).get(path).set('accept-language', 'en-GB,en;q=0.9,tr;q=0.5');
    expect(english.text).toContain('<html lang="en">');
    expect(english.text).toContain('Send exactly');
    expect(english.text).not.toContain('Kopyala');
    expect((await request(h.gateway.url).get(path).set('accept-language', 'de-DE,tr;q=0.8')).text).toContain('<html lang="tr">');
    expect((await request(h.gateway.url).get(`${path}?lang=en`).set('accept-language', 'tr')).text).toContain('<html lang="en">');

    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(pageUrl(created.body.depositUrl));
    await expect(page.locator('h1').textContent()).resolves.toBe('Deposit');
    await expect(page.locator('.countdown').textContent()).resolves.toMatch(/^(29|30):\d{2} left$/);
    await page.screenshot({ path: '/tmp/kasa-hosted-phone-waiting-en.png', fullPage: true });
    await page.click('nav.lang a');
    await expect(page.locator('h1').textContent()).resolves.toBe('Para yatırma');
    await expect(page.locator('button.copy').first().textContent()).resolves.toBe('Kopyala');
    const layout = await phoneLayout(page);
    expect(layout.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await context.close();
    expect(await axeFindings(`${pageUrl(created.body.depositUrl)}?lang=en`)).toEqual([]);

    // An outcome in English, with the credited amount.
    await receiveTransfer(created.body.intentId, created.body.referenceNo, '80000');
    expect((await ops(`/intents/${created.body.intentId}/approve`, {})).status).toBe(200);
    const approved = await request(h.gateway.url).get(`${path}?lang=en`);
    expect(approved.text).toContain('Deposit complete');
    expect(approved.text).toMatch(/Added to your balance: <strong id="credited">800,00 ₺<\/strong>/);
  });

  it('records "I have sent the transfer" once, says what happens next, and refuses a post from another site', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({
      amount: '80000',
      returnUrl: 'https://orneks-bahis.example/kasa/done',
    });
    expect(created.status).toBe(201);
    const path = new URL(created.body.depositUrl).pathname;
    const stored = () =>
      h.ledger.deps.db.deposit.findUnique({ where: { id: created.body.intentId }, select: { userConfirmedAt: true, status: true } });

    // Another site making the browser post is refused and records nothing.
    const crossSite = await request(h.gateway.url).post(`${path}/confirm`).set('sec-fetch-site', 'cross-site');
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await request(h.gateway.url).post(`${path}/confirm`).set('origin', 'https://evil.example');
    expect(foreignOrigin.status).toBe(403);
    expect((await stored())?.userConfirmedAt).toBeNull();

    const context = await browser.newContext({ viewport: PHONE, locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto(pageUrl(created.body.depositUrl));
    await expect(page.locator('#back').getAttribute('href')).resolves.toBe('https://orneks-bahis.example/kasa/done');
    const confirmHeight = (await page.locator('#confirm').boundingBox())?.height ?? 0;
    expect(confirmHeight).toBeGreaterThanOrEqual(44);
    await page.click('#confirm');
    await page.locator('#confirmed').waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    await expect(page.locator('#confirm').count()).resolves.toBe(0);
    const first = (await stored())?.userConfirmedAt;
    expect(first).toBeInstanceOf(Date);
    await page.screenshot({ path: '/tmp/kasa-hosted-phone-confirmed.png', fullPage: true });

    // After a reload it still says so; a second post (a double click, a resent form) changes nothing.
    await page.reload();
    await page.locator('#confirmed').waitFor();
    const again = await request(h.gateway.url).post(`${path}/confirm`).set('sec-fetch-site', 'same-origin');
    expect(again.status).toBe(303);
    expect((await stored())?.userConfirmedAt?.getTime()).toBe(first?.getTime());
    expect((await stored())?.status).toBe('RESERVED');
    await context.close();
    expect(await axeFindings(pageUrl(created.body.depositUrl))).toEqual([]);

    // Without JavaScript it is a plain form post answered with a redirect back to the page.
    const fresh = new URL((await partner(h.gateway.url, site).createDeposit({ amount: '80000' })).body.depositUrl).pathname;
    expect((await request(h.gateway.url).get(fresh)).text).toContain(`<form method="post" action="${fresh}/confirm?lang=tr"`);
    expect((await request(h.gateway.url).get(path)).text).not.toContain('<form');
    expect((await request(h.gateway.url).post(`/deposit/${'C'.repeat(43)}/confirm`)).status).toBe(404);
  });

  it('refuses a returnUrl that is not https (or loopback http), carries credentials, or is not a URL', async () => {
    for (const returnUrl of [
      'http://orneks-bahis.example/',
      'javascript:alert(1)',
      'https://user:pw@orneks-bahis.example/',
      'ftp://x.example/',
      'x'.repeat(10),
    ]) {
      const refused = await partner(h.gateway.url, site).createDeposit({ returnUrl });
      expect({ returnUrl, status: refused.status, field: refused.body.errors?.[0]?.field }).toEqual({
        returnUrl,
        status: 400,
        field: 'returnUrl',
      });
    }
    const local = await partner(h.gateway.url, site).createDeposit({ returnUrl: 'http://127.0.0.1:8084/done' });
    expect(local.status).toBe(201);
    const page = await request(h.gateway.url).get(new URL(local.body.depositUrl).pathname);
    expect(page.text).toContain('href="http://127.0.0.1:8084/done"');
  });

  it('keeps the popup pattern: a partner page on another origin keeps its handle, sees the page load and closes it', async () => {
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '90000' });
    const res = await request(h.gateway.url).get(new URL(created.body.depositUrl).pathname);
    expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");

    // The partner's page: opens a blank popup in the click handler, then points it at the depositUrl.
    const partnerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head><body>
      <button id="pay">Pay</button>
      <script>
        document.getElementById('pay').addEventListener('click', () => {
          window.popup = window.open('about:blank', 'kasa-deposit', 'width=420,height=760');
          setTimeout(() => { window.popup.location.href = ${JSON.stringify(pageUrl(created.body.depositUrl))}; }, 50);
        });
      </script></body></html>`;
    const server: Server = createServer((_req, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(partnerPage));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const partnerOrigin = `http://localhost:${(server.address() as AddressInfo).port}`;
    try {
      const context = await browser.newContext();
      const opener = await context.newPage();
      await opener.goto(partnerOrigin);
      const [popup] = await Promise.all([context.waitForEvent('page'), opener.click('#pay')]);
      await popup.waitForURL(/\/deposit\//);
      await popup.waitForLoadState('load');
      expect(new URL(popup.url()).origin).not.toBe(partnerOrigin);
      await expect(popup.locator('#reference').textContent()).resolves.toBe(created.body.referenceNo);
      await expect(opener.evaluate('window.popup.closed')).resolves.toBe(false);
      await opener.evaluate('window.popup.close()');
      await expect(opener.evaluate('window.popup.closed')).resolves.toBe(true);
      await context.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
