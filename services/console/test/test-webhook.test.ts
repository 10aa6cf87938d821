/**
 * "Send a test webhook" on a site's page: the operator picks a type, the ledger sends a signed sample at once and
 * the console shows how the endpoint answered. (Delivery to a real TLS receiver and its signature are covered by
 * services/webhook-worker/test/test-webhooks.test.ts; here the endpoint refuses the connection.)
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** A loopback port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('send a test webhook', () => {
  it('sends the chosen type from the site page and shows the outcome', async () => {
    const { h, page } = setup;
    const port = await closedPort();
    const site = await h.createSite({ webhookUrl: `https://127.0.0.1:${port}/webhooks/kasa` });
    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Type').selectOption('intent.auto_cancelled');
    await page.getByRole('button', { name: 'Send a test webhook' }).click();
    await page.waitForURL(`**/sites/${site.siteId}/test-webhook`);
    const result = page.locator('section.test-webhook-result');
    await expect(result.textContent()).resolves.toContain('not delivered');
    await expect(result.textContent()).resolves.toContain('intent.auto_cancelled');
    await expect(result.textContent()).resolves.toContain('ECONNREFUSED');
    // Nothing is recorded: the site's deliveries stay empty.
    expect(await h.ledger.deps.db.outboxEvent.count({ where: { siteId: site.siteId } })).toBe(0);
  });

  it('offers no button for a site without a webhook URL', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('there is nowhere to send a test webhook');
    await expect(page.getByRole('button', { name: 'Send a test webhook' }).count()).resolves.toBe(0);
  });
});
