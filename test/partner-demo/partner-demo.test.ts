/**
 * The partner demo end to end, as a newcomer clicks through it: the demo page opens the hosted deposit page in
 * a popup, the demo runs on a test key (as `npm start` sets it up) and the transfer is simulated and approved with the
 * SDK's sandbox calls, the worker delivers the webhook to the demo, which verifies it with @kasa/sdk and shows the
 * new balance; a replayed event does not credit twice. No operator takes part.
 */
import type { Server } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium } from '@kasa/testkit';
import { KasaClient } from '@kasa/sdk';
import { createPartnerDemoApp } from '@kasa/partner-demo';
import { startStack, waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';

let stack: Stack;
let browser: Browser;
let demo: Server;
let demoUrl: string;
let storeDir: string;
let edge: TcpServer;

beforeAll(async () => {
  // depositUrl is built on PUBLIC_BASE_URL: a port taken first, forwarded to the gateway once it runs (as a
  // load balancer in front of it would), so the link the partner gets opens in the browser.
  let gatewayPort = 0;
  edge = createTcpServer((socket) => {
    const upstream = connect(gatewayPort, '127.0.0.1');
    for (const end of [socket, upstream]) end.on('error', () => (end === socket ? upstream : socket).destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => edge.listen(0, '127.0.0.1', resolve));
  const publicBaseUrl = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  // The demo receives webhooks over plain http on loopback, as `npm start` sets it up locally.
  stack = await startStack({ WEBHOOK_ALLOW_HTTP: 'true', PUBLIC_BASE_URL: publicBaseUrl });
  gatewayPort = Number(new URL(stack.h.gateway.url).port);
  browser = await launchChromium();
  storeDir = mkdtempSync(join(tmpdir(), 'kasa-partner-demo-'));
});
afterAll(async () => {
  await new Promise<void>((resolve) => (demo ? demo.close(() => resolve()) : resolve()));
  await browser?.close();
  await stack?.stop();
  await new Promise<void>((resolve) => edge.close(() => resolve()));
  rmSync(storeDir, { recursive: true, force: true });
});

it('takes a deposit from click to credited balance, and a redelivered event credits nothing more', async () => {
  const site = await stack.h.createSite({ name: 'Örnek Bahis', rateLimitPerMinute: 10000 });
  // The demo's key is a test key, as `npm start` issues it: everything below happens in the site's sandbox.
  const issued = await stack.h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  const apiKey = issued.body.apiKey as string;
  const kasa = new KasaClient({ baseUrl: stack.h.gateway.url, apiKey });
  const secrets: string[] = [];
  const app = createPartnerDemoApp({
    kasaUrl: stack.h.gateway.url,
    apiKey,
    webhookSecrets: () => secrets,
    publicUrl: 'http://127.0.0.1:0',
    storeFile: join(storeDir, 'books.json'),
    log: () => undefined,
  });
  demo = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => demo.once('listening', resolve));
  demoUrl = `http://127.0.0.1:${(demo.address() as AddressInfo).port}`;
  const config = await kasa.webhookConfig.update({ webhookUrl: `${demoUrl}/webhooks/kasa` });
  secrets.push(config.webhookSecret as string);

  const context = await browser.newContext({ locale: 'tr-TR' });
  const page = await context.newPage();
  await page.goto(demoUrl);
  await expect(page.locator('#balance').textContent()).resolves.toBe('0,00 ₺');
  const [popup] = await Promise.all([context.waitForEvent('page'), page.click('button[data-amount="50000"]')]);
  await popup.waitForURL(/\/deposit\//);
  const referenceNo = (await popup.locator('#reference').textContent()) as string;
  expect(referenceNo).toMatch(/^[A-Z0-9]{10}$/);
  await expect(page.evaluate('window.kasaPopup.closed')).resolves.toBe(false);

  // The money is simulated and approved with the test key, as the bank and an operator would.
  const intent = (await kasa.intents.list({ limit: 10 })).data.find((item) => item.referenceNo === referenceNo);
  expect(intent).toBeDefined();
  const intentId = intent!.intentId;
  const transfer = await kasa.sandbox.simulateTransfer(intentId, { senderName: 'Ayşe Yılmaz' });
  expect(transfer).toMatchObject({ status: 'MATCHED', amount: '50000', intent: { intentId } });
  if (!transfer.autoApproved) expect(await kasa.sandbox.approveDeposit(intentId)).toMatchObject({ status: 'APPROVED' });

  // The demo page shows the credit once the webhook is verified and applied.
  await page.locator('#balance', { hasText: '500,00 ₺' }).waitFor({ timeout: 20_000 });
  await popup.locator('#state-title', { hasText: 'Yatırım tamamlandı' }).waitFor({ timeout: 20_000 });

  // Replay the delivered event: it arrives again with the same eventId and changes nothing.
  const events = [];
  for await (const event of kasa.events.iterate({ type: 'intent.approved' })) events.push(event);
  expect(events).toHaveLength(1);
  const eventId = events[0]!.eventId;
  await waitFor('first delivery recorded', async () => (await kasa.events.get(eventId)).status === 'DELIVERED');
  await kasa.events.replay(eventId);
  await waitFor('replay delivered', async () => (await kasa.events.get(eventId)).attempts.length === 2);
  const balance = (await (await fetch(`${demoUrl}/api/balance`)).json()) as { balance: string };
  expect(balance.balance).toBe('50000');
  await context.close();
});
