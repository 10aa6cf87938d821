/**
 * Erasure requests in the console: an admin files one for a site's end user and reads what was anonymised and what waits
 * for which hold; the list shows each request's 30-day timer with an overdue one marked; a reviewer sees no form.
 */
import { describe, expect, it } from '@jest/globals';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-erasure';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

describe('erasure requests', () => {
  it('lets an admin file a request and shows what waits for which hold, and marks an overdue one', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    const deposit = await h.createDeposit(site, 25000, { externalUserId: 'console-user', externalUserLabel: 'Elif Şahin' });

    await page.goto('/erasure-requests');
    await page.locator('select[name=siteId]').selectOption(site.siteId);
    await page.getByLabel("The partner's user id", { exact: true }).fill('console-user');
    await page.getByLabel('Ticket or letter', { exact: true }).fill('KVKK-2026-7');
    await page.getByRole('button', { name: 'File erasure request' }).click();
    await page.waitForURL('**/erasure-requests/*?notice=erasure-request-filed');
    const main = await page.locator('main').innerText();
    expect(main).toContain('Answered');
    expect(main).toContain(deposit.intentId);
    expect(main).toContain('Retention (MASAK, 8 years)');

    // A request still open past its 30 days (a ledger down since it was filed) is marked overdue in the list.
    const other = await h.ops('POST', '/erasure-requests', { siteId: site.siteId, externalUserId: 'nobody-yet', reason: 'x' });
    expect(other.status).toBe(201);
    await h.ledger.deps.db.$executeRawUnsafe(
      `UPDATE erasure_requests SET status = 'OPEN', due_at = now() - interval '1 day' WHERE id = $1::uuid`,
      other.body.erasureRequestId,
    );
    await page.goto('/erasure-requests');
    await expect(page.locator('tr', { hasText: 'nobody-yet' }).innerText()).resolves.toContain('OVERDUE');
    await expect(page.locator('tr', { hasText: 'console-user' }).innerText()).resolves.not.toContain('OVERDUE');
    expect(await axeFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/console-erasure.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/console-erasure-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('shows a reviewer the requests without a form', async () => {
    const { h, reviewer } = setup;
    const { context, page } = await h.login(reviewer);
    await page.goto('/erasure-requests');
    await expect(page.locator('main').textContent()).resolves.toContain('Filing an erasure request needs the admin role.');
    await expect(page.getByRole('button', { name: 'File erasure request' }).count()).resolves.toBe(0);
    await context.close();
  });
});
