/**
 * The hosted page of a sandbox's (test) deposit (docs/hosted-page.md, Test mode): a "Test mode" banner on every
 * state and, while the deposit waits for money, "Simulate the transfer", which has the ledger's simulator send it.
 * A live deposit's page has neither, and a post crafted to simulate one is refused with nothing changed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { launchChromium } from '@kasa/testkit';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let h: Harness;
let browser: Browser;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await h?.stop();
});

const pagePath = (depositUrl: string) => new URL(depositUrl).pathname;

/** The site's test key (its sandbox is made with the first one); the sandbox copies the live site's settings then. */
async function issueTestKey(site: TestSite): Promise<TestSite> {
  const issued = await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  return { ...site, apiKey: issued.body.apiKey as string };
}

async function testDeposit(options: { autoApprove?: boolean } = {}) {
  const site = await h.createSite({ name: 'Örnek Bahis' });
  if (options.autoApprove) {
    const rule = { enabled: true, maxAmount: '500000', requireSenderMatch: true };
    expect((await h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { autoApprove: rule })).status).toBe(200);
  }
  const created = await partner(h.gateway.url, await issueTestKey(site)).createDeposit({
    amount: '150000',
    externalUserLabel: 'Ayşe Yılmaz',
  });
  expect(created.status).toBe(201);
  return created.body as { intentId: string; referenceNo: string; depositUrl: string };
}

const statusOf = async (intentId: string) => (await h.ops('GET', `/ops/v1/intents/${intentId}`)).body.status as string;

describe('hosted page of a test deposit', () => {
  it('says "Test mode" and simulates the transfer: the page comes back received and the button is gone', async () => {
    const deposit = await testDeposit();
    for (const [lang, banner, button] of [
      ['tr', 'Test modu: gerçek para kullanılmaz', 'Transferi simüle et'],
      ['en', 'Test mode: no real money moves', 'Simulate the transfer'],
    ] as const) {
      const res = await request(h.gateway.url).get(`${pagePath(deposit.depositUrl)}?lang=${lang}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(banner);
      expect(res.text).toContain(button);
    }

    const context = await browser.newContext({ locale: 'tr-TR', viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${h.gateway.url}${pagePath(deposit.depositUrl)}`);
    await expect(page.locator('#test-mode').textContent()).resolves.toBe('Test modu: gerçek para kullanılmaz');
    await expect(page.locator('#simulate').textContent()).resolves.toBe('Transferi simüle et');
    await Promise.all([page.waitForURL(/\/deposit\/[^/]+\?lang=tr$/), page.locator('#simulate').click()]);
    await expect(page.locator('#state-title').textContent()).resolves.toBe('Ödemeniz alındı');
    await expect(page.locator('#simulate').count()).resolves.toBe(0);
    await expect(page.locator('#test-mode').count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await context.close();

    expect(await statusOf(deposit.intentId)).toBe('PENDING_REVIEW');
    const transfers = await h.ledger.deps.db.bankTransfer.findMany({ where: { intentId: deposit.intentId } });
    expect(transfers.map((t) => [t.amount.toString(), t.description, t.senderName, t.livemode])).toEqual([
      ['150000', deposit.referenceNo, 'Ayşe Yılmaz', false],
    ]);
    // The money is the hosted page's doing, audited as the system, not as a key or an operator.
    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: { in: [deposit.intentId, transfers[0]!.id] } } });
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((a) => `${a.actorType}:${a.actorId}`))).toEqual(new Set(['SYSTEM:hosted-page']));

    // A repeat (a resent form) once the deposit has moved changes nothing.
    const again = await request(h.gateway.url)
      .post(`${pagePath(deposit.depositUrl)}/simulate?lang=tr`)
      .set('sec-fetch-site', 'same-origin');
    expect(again.status).toBe(303);
    expect(await h.ledger.deps.db.bankTransfer.count({ where: { intentId: deposit.intentId } })).toBe(1);
  });

  it('fits a 375 px phone with 44 px targets and passes axe-core, in Turkish and English', async () => {
    const deposit = await testDeposit();
    const problems: string[] = [];
    for (const lang of ['tr', 'en'] as const) {
      // axe-core is injected by the test, so this context (only) lets it past the page's CSP.
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${h.gateway.url}${pagePath(deposit.depositUrl)}?lang=${lang}`);
      const layout = (await page.evaluate(`(() => {
        const box = (id) => document.getElementById(id).getBoundingClientRect();
        return { scrollWidth: document.documentElement.scrollWidth, simulate: box('simulate').height, bannerTop: box('test-mode').top };
      })()`)) as { scrollWidth: number; simulate: number; bannerTop: number };
      if (layout.scrollWidth > 375) problems.push(`${lang}: scrollWidth ${layout.scrollWidth}`);
      if (layout.simulate < 44) problems.push(`${lang}: simulate button ${layout.simulate} px`);
      if (layout.bannerTop > 40) problems.push(`${lang}: banner at ${layout.bannerTop} px, not at the top`);
      await page.evaluate(AXE_SOURCE);
      const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: { id: string; impact: string | null }[];
      };
      for (const v of result.violations) if (v.impact === 'serious' || v.impact === 'critical') problems.push(`${lang}: axe ${v.id}`);
      await context.close();
    }
    expect(problems).toEqual([]);
  });

  it("comes back approved when the sandbox's straight-through rule approves the simulated money", async () => {
    const deposit = await testDeposit({ autoApprove: true });
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${h.gateway.url}${pagePath(deposit.depositUrl)}?lang=en`);
    await Promise.all([page.waitForURL(/\?lang=en$/), page.locator('#simulate').click()]);
    await expect(page.locator('#state-title').textContent()).resolves.toBe('Deposit complete');
    await expect(page.locator('#credited').textContent()).resolves.toBe('1.500,00 ₺');
    await expect(page.locator('#test-mode').textContent()).resolves.toBe('Test mode: no real money moves');
    await expect(page.locator('#simulate').count()).resolves.toBe(0);
    await context.close();
    expect(await statusOf(deposit.intentId)).toBe('APPROVED');
  });

  it('refuses a simulation posted from another site, with nothing changed', async () => {
    const deposit = await testDeposit();
    const res = await request(h.gateway.url)
      .post(`${pagePath(deposit.depositUrl)}/simulate`)
      .set('sec-fetch-site', 'cross-site');
    expect(res.status).toBe(403);
    expect(await statusOf(deposit.intentId)).toBe('RESERVED');
  });
});

describe('hosted page of a live deposit', () => {
  it('has no banner and no button, and a crafted simulation is 404 with the deposit still RESERVED', async () => {
    const site = await h.createSite({ name: 'Örnek Bahis' });
    const created = await partner(h.gateway.url, site).createDeposit({ amount: '150000' });
    const path = pagePath(created.body.depositUrl);

    const context = await browser.newContext({ locale: 'tr-TR' });
    const page = await context.newPage();
    await page.goto(`${h.gateway.url}${path}`);
    await expect(page.locator('#confirm').count()).resolves.toBe(1);
    await expect(page.locator('#test-mode').count()).resolves.toBe(0);
    await expect(page.locator('#simulate').count()).resolves.toBe(0);
    await context.close();
    for (const lang of ['tr', 'en']) {
      const text = (await request(h.gateway.url).get(`${path}?lang=${lang}`)).text;
      expect(text).not.toMatch(/Test mod|simüle|Simulate|\/simulate/);
    }

    const crafted = await request(h.gateway.url).post(`${path}/simulate`).set('sec-fetch-site', 'same-origin');
    expect(crafted.status).toBe(404);
    expect(crafted.headers.location).toBeUndefined();
    expect(await statusOf(created.body.intentId as string)).toBe('RESERVED');
    expect(await h.ledger.deps.db.bankTransfer.count({ where: { intentId: created.body.intentId as string } })).toBe(0);
  });
});
