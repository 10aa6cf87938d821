/**
 * A site's settings in the console: an admin changes them in the site's page (amounts in lira), the change
 * is audited and the audit log shows it as before → after; a first webhook URL shows its signing secret
 * once; a reviewer sees the settings but no form, and the ledger refuses a reviewer's forged post. Straight-through
 * approval is set there too (on/off, its limit in lira, the sender check) and reads back through the ops API; the
 * page reads in Turkish for a Turkish browser.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';
import { expectTurkish } from './i18n-pages.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

describe('site settings', () => {
  it('lets an admin change settings, audits them and shows the change in the audit log', async () => {
    const { h, page } = setup;
    const site = await h.createSite({ rateLimitPerMinute: 60, maxAmount: '500000' });
    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Rate limit (requests/minute)').fill('7');
    await page.getByLabel('Maximum amount in lira (TRY)').fill('2.500,50');
    await page.getByLabel('Return URL').fill('https://ornek.example/cuzdan');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    const stored = (await h.ops('GET', `/sites/${site.siteId}`)).body;
    expect(stored).toMatchObject({ rateLimitPerMinute: 7, maxAmount: '250050', returnUrl: 'https://ornek.example/cuzdan' });

    // Saving the form unchanged changes nothing and audits nothing.
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-unchanged`);

    await page.goto(`/audit?entityType=site&entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    const rows = page.locator('tr', { has: page.locator('code', { hasText: 'SITE.SETTINGS_CHANGED' }) });
    await expect(rows.count()).resolves.toBe(1);
    const change = (await rows.first().locator('ul.change').innerText()).replace(/\s+/g, ' ');
    expect(change).toContain('rateLimitPerMinute 60 → 7');
    expect(change).toContain('maxAmount 5.000,00 ₺ → 2.500,50 ₺');
    expect(change).toContain('returnUrl — → https://ornek.example/cuzdan');
    await page.screenshot({ path: '/tmp/kasa-console-audit.png', fullPage: true });
  });

  it('shows a first webhook URL its signing secret once, and refuses bad input naming the field', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Webhook URL').fill('https://127.0.0.1:8443/webhooks/kasa');
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await expect(page.locator('code.secret').textContent()).resolves.toMatch(/^whsec_/);

    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Minimum amount in lira (TRY)').fill('1.500');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.locator('section.error').textContent()).resolves.toContain('minAmount');
  });

  it('shows a reviewer the settings without a form, and the ledger refuses a forged change', async () => {
    const { h, reviewer, site } = setup;
    const { context, page } = await h.login(reviewer);
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('Changing settings needs the admin role.');
    await expect(page.getByRole('button', { name: 'Save settings' }).count()).resolves.toBe(0);
    const csrf = await page.evaluate('document.querySelector("input[name=_csrf]")?.value');
    const forged = await context.request.post(`/sites/${site.siteId}/settings`, {
      form: {
        _csrf: String(csrf),
        name: 'Forged',
        rateLimitPerMinute: '1',
        depositTtlSeconds: '1800',
        minAmount: '10',
        maxAmount: '10000',
      },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.name).not.toBe('Forged');
    await context.close();
  });

  it('lets an admin switch straight-through approval on with its limit and sender check, and off again', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.autoApprove).toMatchObject({ enabled: false });
    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('On: approve clean matches automatically').check();
    await page.getByLabel('Straight-through up to, in lira (TRY)').fill('2.500,50');
    await page.getByLabel("Only when the sender's name matches the user").check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.autoApprove).toEqual({
      enabled: true,
      maxAmount: '250050',
      requireSenderMatch: true,
    });
    await expect(page.locator('main').textContent()).resolves.toContain("on, up to 2.500,50 ₺; the sender's name must match the user");

    // Off again: the limit and the sender check stay as they were, for the next time it is switched on.
    await page.getByLabel('On: approve clean matches automatically').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.autoApprove).toEqual({
      enabled: false,
      maxAmount: '250050',
      requireSenderMatch: true,
    });

    const audit = await h.ops('GET', `/audit?entityType=site&entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    const changes = (audit.body.data as Array<{ metadata: unknown }>).map((entry) => JSON.stringify(entry.metadata));
    expect(changes).toHaveLength(2);
    expect(changes.join()).toContain('autoApproveEnabled');
    expect(changes.join()).toContain('autoApproveMaxAmount');
  });

  it('lets an admin switch the sanctions screening of deposit senders on and off, each change audited', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.screenDepositSenders).toBe(false);
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.locator('main').textContent()).resolves.toMatch(/Sanctions screening of senders\s*off/);
    await page.getByLabel('Screen the senders of deposit payments against the sanctions lists').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.screenDepositSenders).toBe(true);
    await expect(page.locator('main').textContent()).resolves.toContain('on: the sender of every deposit payment is screened');
    await expect(page.getByLabel('Screen the senders of deposit payments against the sanctions lists').isChecked()).resolves.toBe(true);

    await page.getByLabel('Screen the senders of deposit payments against the sanctions lists').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    expect((await h.ops('GET', `/sites/${site.siteId}`)).body.screenDepositSenders).toBe(false);
    const audit = await h.ops('GET', `/audit?entityType=site&entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    const changes = (audit.body.data as Array<{ metadata: { before: unknown; after: unknown } }>).map((entry) => entry.metadata);
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        { before: { screenDepositSenders: false }, after: { screenDepositSenders: true } },
        { before: { screenDepositSenders: true }, after: { screenDepositSenders: false } },
      ]),
    );
  });

  it('refuses an unreadable straight-through limit, or none when switching on, naming the field and changing nothing', async () => {
    const { h, page } = setup;
    const site = await h.createSite({ rateLimitPerMinute: 60 });
    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Rate limit (requests/minute)').fill('9');
    await page.getByLabel('On: approve clean matches automatically').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    const error = page.locator('section.error');
    await expect(error.textContent()).resolves.toContain('autoApproveMaxAmount');
    await expect(error.textContent()).resolves.toContain('is needed to switch straight-through approval on');

    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Rate limit (requests/minute)').fill('9');
    await page.getByLabel('On: approve clean matches automatically').check();
    await page.getByLabel('Straight-through up to, in lira (TRY)').fill('12,3,4');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(error.textContent()).resolves.toContain('autoApproveMaxAmount');
    await expect(error.textContent()).resolves.toContain('thousands separators');

    const stored = (await h.ops('GET', `/sites/${site.siteId}`)).body;
    expect(stored.rateLimitPerMinute).toBe(60);
    expect(stored.autoApprove).toMatchObject({ enabled: false, maxAmount: '0' });
    const audit = await h.ops('GET', `/audit?entityType=site&entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    expect(audit.body.data).toEqual([]);
  });

  it('reads in Turkish for a Turkish browser: the sites list, a site with its settings and straight-through approval', async () => {
    const { h, page } = setup;
    const site = await h.createSite({ name: 'Örnek Bahis', webhookUrl: 'https://127.0.0.1:8443/webhooks/kasa' });
    await h.ops('PATCH', `/sites/${site.siteId}`, { autoApprove: { enabled: true, maxAmount: '1000000', requireSenderMatch: true } });
    const turkish = { headers: { 'Accept-Language': 'tr-TR,tr;q=0.9' } };
    const one = expectTurkish(await (await page.request.get(`/sites/${site.siteId}`, turkish)).text());
    for (const words of [
      'Ayarlar',
      'Otomatik onay',
      'açık, 10.000,00 ₺ tutarına kadar',
      'Gönderen yaptırım taraması',
      'Ayarları kaydet',
      'API anahtarları',
      'Deneme bildirimi',
    ])
      expect(one).toContain(words);
    const list = expectTurkish(await (await page.request.get('/sites', turkish)).text());
    expect(list).toContain('Siteler ve anahtarlar');
    expect(list).toContain('Yeni site');
  });

  it("gives an admin limited to some sites the site's other settings, but not the house-wide straight-through rule", async () => {
    const { h } = setup;
    const site = await h.createSite({ rateLimitPerMinute: 60 });
    const scoped = { email: `scoped-${randomUUID().slice(0, 8)}@kasa.test`, password: `pw-${randomUUID()}` };
    const created = await h.ops('POST', '/operators', { ...scoped, name: 'Scoped Admin', role: 'ADMIN', siteIds: [site.siteId] });
    expect(created.status).toBe(201);
    const { context, page } = await loginInBrowser(h.browser, h.console.url, { operatorId: created.body.operatorId, ...scoped });
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.locator('input[name^="autoApprove"]').count()).resolves.toBe(0);
    await expect(page.locator('input[name="screenDepositSenders"]').count()).resolves.toBe(0);
    await expect(page.locator('main').textContent()).resolves.toContain('Straight-through approval is house-wide');
    // Its other settings save as before: the form sends nothing of the rule, so the ledger has nothing to refuse.
    await page.getByLabel('Rate limit (requests/minute)').fill('8');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?notice=site-settings-saved`);
    const stored = (await h.ops('GET', `/sites/${site.siteId}`)).body;
    expect(stored.rateLimitPerMinute).toBe(8);
    expect(stored.autoApprove.enabled).toBe(false);
    await context.close();
  });
});
