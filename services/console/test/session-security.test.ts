import { describe, expect, it } from '@jest/globals';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser();

async function pendingDeposit() {
  const { h, site } = setup;
  const intent = await h.createDeposit(site, 50000);
  expect((await h.transfer(intent.referenceNo, 50000)).status).toBe(201);
  return intent;
}

/** Logs the admin in and sends the new-site form on /sites: a fresh slug from `slugPrefix`, `name`, and `more` (label → value). */
async function adminCreatesSite(slugPrefix: string, name: string, more: Record<string, string>) {
  const { context, page } = await setup.h.login(setup.admin);
  const slug = `${slugPrefix}-${Date.now()}`;
  await page.goto('/sites');
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Name', { exact: true }).fill(name);
  for (const [label, value] of Object.entries(more)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Create site' }).click();
  return { context, page, slug };
}

/** A deposit awaiting review, and the admin logged in with the page's CSRF token: what a forged or replayed POST starts from. */
async function adminPageWithPendingDeposit() {
  const intent = await pendingDeposit();
  const { context, page } = await setup.h.login(setup.admin);
  const csrf = await page.locator('input[name=_csrf]').first().inputValue();
  return { intent, context, page, csrf };
}

const statusOf = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body.status;

describe('login', () => {
  it('shows an error and stays on the login form after a wrong password', async () => {
    const { h, admin } = setup;
    const context = await h.browser.newContext({ baseURL: h.console.url });
    const page = await context.newPage();
    await page.goto('/review');
    await page.waitForURL('**/login?next=%2Freview');
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill('not the password');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(response.status()).toBe(401);
    await expect(page.locator('.error-line').textContent()).resolves.toBe('E-mail or password is wrong, or the account is disabled.');
    await expect(page.getByLabel('E-mail').inputValue()).resolves.toBe(admin.email);
    await expect(page.getByLabel('Password').inputValue()).resolves.toBe('');
    await context.close();
  });

  it("refuses a bank connector's account with a clear message and no session", async () => {
    const { h } = setup;
    const email = `connector-${Date.now()}@kasa.test`;
    const password = 'connector password 1234';
    expect((await h.ops('POST', '/operators', { email, name: 'Bank feed', role: 'CONNECTOR', password })).status).toBe(201);
    const context = await h.browser.newContext({ baseURL: h.console.url });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/login') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.locator('.error-line').textContent()).resolves.toContain(
      "bank connector's account: it cannot sign in to the console",
    );
    await page.goto('/review');
    await page.waitForURL('**/login?next=%2Freview');
    await context.close();
  });

  it('keeps the ops token only inside an HttpOnly, SameSite=Strict cookie that is sealed', async () => {
    const { h, admin } = setup;
    const { context } = await h.login(admin);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'kasa_console', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toContain('kop_');
    expect(Buffer.from(cookie?.value ?? '', 'base64url').toString('latin1')).not.toContain('kop_');
    await context.close();
  });

  it('sends a tampered session cookie to the login page', async () => {
    const { h, admin } = setup;
    const { context, page } = await h.login(admin);
    const [cookie] = await context.cookies();
    const value = cookie!.value;
    const flipped = `${value.slice(0, 30)}${value[30] === 'A' ? 'B' : 'A'}${value.slice(31)}`;
    await context.addCookies([{ ...cookie!, value: flipped }]);
    await page.goto('/review');
    await page.waitForURL('**/login?next=%2Freview');
    await expect(page.getByRole('button', { name: 'Log in' }).count()).resolves.toBe(1);
    await context.close();
  });
});

describe('CSRF', () => {
  it('refuses a form POST without a valid CSRF token with 403 and changes nothing', async () => {
    const { h, admin } = setup;
    const { intent, context, csrf: valid } = await adminPageWithPendingDeposit();
    const missing = await context.request.post(`/intents/${intent.intentId}/approve`, { form: { _back: '/review' }, maxRedirects: 0 });
    const forged = await context.request.post(`/intents/${intent.intentId}/approve`, {
      form: { _csrf: `${valid.slice(0, -2)}xx`, _back: '/review' },
      maxRedirects: 0,
    });
    expect(missing.status()).toBe(403);
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('This form could not be verified.');
    // Another browser's valid token does not fit this session either.
    const other = await h.login(admin);
    const foreign = await other.page.locator('input[name=_csrf]').first().inputValue();
    expect(
      (await context.request.post(`/intents/${intent.intentId}/approve`, { form: { _csrf: foreign }, maxRedirects: 0 })).status(),
    ).toBe(403);
    expect(await statusOf(intent.intentId)).toBe('PENDING_REVIEW');
    await other.context.close();
    await context.close();
  });
});

describe('logout', () => {
  it('revokes the token: the back button and a replayed old cookie both end at the login form without acting', async () => {
    const { intent, context, page, csrf } = await adminPageWithPendingDeposit();
    const [oldCookie] = await context.cookies();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login?notice=signed-out');
    expect(await context.cookies()).toHaveLength(1); // only the fresh anonymous login-form session
    await page.goBack();
    await page.waitForURL('**/login**');
    await expect(page.getByRole('button', { name: 'Log in' }).count()).resolves.toBe(1);

    const afterLogout = await context.request.post(`/intents/${intent.intentId}/approve`, { form: { _csrf: csrf }, maxRedirects: 0 });
    expect(afterLogout.status()).toBe(303);
    expect(afterLogout.headers().location).toBe('/login');
    // Even the old cookie, replayed, carries a token the ledger has revoked.
    await context.addCookies([oldCookie!]);
    const replayed = await context.request.post(`/intents/${intent.intentId}/approve`, { form: { _csrf: csrf }, maxRedirects: 0 });
    expect(replayed.status()).toBe(303);
    expect(replayed.headers().location).toBe('/login?notice=expired');
    expect(await statusOf(intent.intentId)).toBe('PENDING_REVIEW');
    await context.close();
  });
});

describe('roles', () => {
  it('hides site and key actions from a reviewer and shows the ledger 403 readably when posting anyway', async () => {
    const { h, site, reviewer } = setup;
    const { context, page } = await h.login(reviewer);
    await page.goto('/sites');
    await expect(page.locator(`tr[data-id="${site.siteId}"]`).count()).resolves.toBe(1);
    await expect(page.locator('form[action="/sites"]').count()).resolves.toBe(0);
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.getByRole('button', { name: 'Issue a new API key' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(0);

    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const slug = `rev-${Date.now()}`;
    const created = await context.request.post('/sites', {
      form: { _csrf: csrf, _back: '/sites', slug, name: 'Not allowed' },
      maxRedirects: 0,
    });
    expect(created.status()).toBe(403);
    const text = await created.text();
    expect(text).toContain('Your role cannot do this.');
    expect(text).toContain('← Back to the page');
    const issued = await context.request.post(`/sites/${site.siteId}/api-keys`, { form: { _csrf: csrf }, maxRedirects: 0 });
    expect(issued.status()).toBe(403);
    const balances = await h.ops('GET', '/balances');
    expect(balances.body.data.map((s: { slug: string }) => s.slug)).not.toContain(slug);
    await context.close();
  });

  it('lets an admin create a site, issue a key shown once, and revoke it', async () => {
    const { h, admin } = setup;
    const { context, page, slug } = await adminCreatesSite('adm', 'Örnek Bahis', { 'Minimum amount in lira (TRY)': '25' });
    await page.waitForURL('**/sites/*?notice=site-created');
    const siteId = new URL(page.url()).pathname.split('/').pop() as string;
    await page.getByRole('button', { name: 'Issue a new API key' }).click();
    const key = await page.locator('code.secret').textContent();
    expect(key).toMatch(new RegExp(`^sk_live_${slug}_`));
    await page.getByRole('link', { name: 'Done — back to the site' }).click();
    await expect(page.content()).resolves.not.toContain(key);
    await page.locator('tr[data-id]').getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`**/sites/${siteId}?notice=key-revoked`);
    await expect(page.locator('tr[data-id] .badge.ok').count()).resolves.toBe(0);
    const audit = await h.ops('GET', `/audit?siteId=${siteId}&action=API_KEY.REVOKED`);
    expect(audit.body.data[0].actor.id).toBe(admin.operatorId);
    await context.close();
  });

  it('shows the webhook signing secret of a site created with a webhook URL once, and lists the site with it', async () => {
    const { context, page } = await adminCreatesSite('hook', 'Webhook site', { 'Webhook URL': 'https://127.0.0.1/kasa/webhooks' });
    const secret = await page.locator('code.secret').textContent();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('link', { name: /Done/ }).click();
    await expect(page.content()).resolves.not.toContain(secret as string);
    await page.goto('/sites');
    await expect(page.locator('table.list').textContent()).resolves.toContain('https://127.0.0.1/kasa/webhooks');
    await context.close();
  });
});
