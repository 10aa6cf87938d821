/** Two-factor authentication in the console, in Chromium: enrollment by QR, recovery codes, login with the code. */
import { describe, expect, it } from '@jest/globals';
import { totpCode } from '@kasa/testkit';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser();

describe('two-factor authentication', () => {
  it('enrolls by QR with a first code, shows the recovery codes once, then asks for a code at login', async () => {
    const { h } = setup;
    const operator = await h.createOperator('REVIEWER');
    const { context, page } = await h.login(operator);

    await page.getByRole('link', { name: operator.email }).click();
    await page.waitForURL('**/account/2fa');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await expect(page.locator('svg.qr path').count()).resolves.toBe(1);
    const secret = (await page.locator('code.secret').textContent()) as string;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    await page.getByLabel('Code', { exact: true }).fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.locator('.error h2').textContent()).resolves.toBe('The code is wrong, expired or already used.');

    // Still logged in after a wrong code: enroll again (a new secret) and confirm it.
    await page.goto('/account/2fa');
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const fresh = (await page.locator('code.secret').textContent()) as string;
    await page.getByLabel('Code', { exact: true }).fill(totpCode(fresh));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const recovery = await page.locator('ul.recovery-codes code').allTextContents();
    expect(recovery).toHaveLength(10);
    await page.goto('/account/2fa');
    await expect(page.locator('body').textContent()).resolves.not.toContain(fresh);
    await expect(page.locator('body').textContent()).resolves.toContain('Logins to this account ask for a code');
    await context.close();

    const browser = await h.browser.newContext({ baseURL: h.console.url });
    const login = await browser.newPage();
    await login.goto('/login');
    await login.getByLabel('E-mail').fill(operator.email);
    await login.getByLabel('Password').fill(operator.password);
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect(login.locator('.error-line').textContent()).resolves.toBe(
      'Enter your password again and the code from your authenticator app.',
    );
    await login.getByLabel('Password').fill(operator.password);
    await login.getByLabel('Code from your authenticator app').fill(recovery[0] as string);
    await login.getByRole('button', { name: 'Log in' }).click();
    await login.waitForURL((url) => url.pathname === '/');
    await browser.close();
  });
});
