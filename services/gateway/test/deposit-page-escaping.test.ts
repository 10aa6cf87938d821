/**
 * The hosted deposit page shows text from operators (bank and holder names) and partners (the site name).
 * This file's only receiving account and its site carry markup in those names: they must read back as text.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { launchChromium } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const BANK_NAME = '<script>alert(1)</script> Bankası';
const HOLDER_NAME = 'Kasa" onmouseover="alert(2)" data-x="';
const SITE_NAME = "<img src=x onerror=alert(3)>'Bahis";

let h: Harness;
let site: TestSite;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness({}, { receivingAccount: { bankName: BANK_NAME, holderName: HOLDER_NAME } });
  site = await h.createSite({ name: SITE_NAME });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

const pagePath = (depositUrl: string) => new URL(depositUrl).pathname;

describe('hosted deposit page with hostile names', () => {
  it('renders bank, holder and site names escaped, in text and in attributes', async () => {
    const created = await partner(h.gateway.url, site).createDeposit();
    const res = await request(h.gateway.url).get(pagePath(created.body.depositUrl));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('" onmouseover=');
    expect(res.text).not.toContain('<img');
    expect(res.text).toContain('<span id="bank" class="value">&lt;script&gt;alert(1)&lt;/script&gt; Bankası</span>');
    expect(res.text).toContain('data-copy="Kasa&quot; onmouseover=&quot;alert(2)&quot; data-x=&quot;"');
    expect(res.text).toContain('<title>Para yatırma · &lt;img src=x onerror=alert(3)&gt;&#39;Bahis</title>');
  });

  it('shows the names as typed in Chromium, runs no injected script and reports no CSP violation', async () => {
    const created = await partner(h.gateway.url, site).createDeposit();
    const context = await browser.newContext({ locale: 'tr-TR' });
    const page = await context.newPage();
    const dialogs: string[] = [];
    const violations: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) violations.push(message.text());
    });
    await page.goto(`${h.gateway.url}${pagePath(created.body.depositUrl)}`);
    await expect(page.locator('#bank').textContent()).resolves.toBe(BANK_NAME);
    await expect(page.locator('#holder').textContent()).resolves.toBe(HOLDER_NAME);
    await expect(page.locator('#holder + button.copy').getAttribute('data-copy')).resolves.toBe(HOLDER_NAME);
    await expect(page.title()).resolves.toBe(`Para yatırma · ${SITE_NAME}`);
    await page.locator('#holder + button.copy').hover();
    // Only the page's own script element exists, and no injected image or handler attribute.
    await expect(page.evaluate("document.querySelectorAll('script, img, [onmouseover], [onerror]').length")).resolves.toBe(1);
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });
});
