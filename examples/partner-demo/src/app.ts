/**
 * The partner demo: what a partner site does to take deposits with Kasa.
 *
 * - Its page opens a blank popup in the click handler (browsers allow popups only there), asks this backend for
 *   a deposit, and points the popup at the returned `depositUrl`.
 * - This backend creates the deposit with @kasa/sdk (the API key stays here), receives Kasa's webhooks, verifies
 *   them, applies each event once (deduplicated on `eventId`) and answers 2xx.
 * - The page polls the user's balance and shows it change when the deposit is approved.
 */
import { readFileSync } from 'node:fs';
import express, { type Express } from 'express';
import { KasaApiError, KasaClient, verifyWebhook, WebhookVerificationError } from '@kasa/sdk';
import { DemoStore } from './store.js';

export interface PartnerDemoOptions {
  kasaUrl: string;
  apiKey: string;
  /** The site's webhook secret(s), current first. */
  webhookSecrets: () => string[];
  /** This demo's own public URL (the hosted page links back to it). */
  publicUrl: string;
  storeFile: string;
  /** The one signed-in user of the demo. */
  userId?: string;
  log?: (message: string) => void;
}

const PAGE = readFileSync(new URL('../public/index.html', import.meta.url), 'utf8');
const SCRIPT = readFileSync(new URL('../public/app.js', import.meta.url), 'utf8');
const AMOUNTS = new Set(['15000', '50000', '150000']);

export function createPartnerDemoApp(options: PartnerDemoOptions): Express {
  const kasa = new KasaClient({ baseUrl: options.kasaUrl, apiKey: options.apiKey });
  const store = new DemoStore(options.storeFile);
  const userId = options.userId ?? 'demo-user-1';
  const log = options.log ?? ((message: string) => process.stdout.write(`[partner-demo] ${message}\n`));
  const app = express();
  app.disable('x-powered-by');

  app.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
    res.type('html').send(PAGE);
  });
  app.get('/app.js', (_req, res) => {
    res.type('application/javascript').send(SCRIPT);
  });

  app.get('/api/balance', (_req, res) => {
    res.json({ userId, balance: store.balanceOf(userId).toString() });
  });

  // Creates the deposit for the signed-in user; the amount is one of the page's buttons, in kuruş.
  app.post('/api/deposits', express.json(), async (req, res) => {
    const amount = String((req.body as { amount?: unknown } | undefined)?.amount ?? '');
    if (!AMOUNTS.has(amount)) {
      res.status(400).json({ error: 'unknown amount' });
      return;
    }
    try {
      const deposit = await kasa.deposits.create({ externalUserId: userId, amount, returnUrl: `${options.publicUrl}/` });
      store.remember(deposit.intentId, userId);
      log(`deposit ${deposit.intentId} created for ${userId}, reference ${deposit.referenceNo}`);
      res.status(201).json({ depositUrl: deposit.depositUrl, referenceNo: deposit.referenceNo });
    } catch (error) {
      const code = error instanceof KasaApiError ? error.code : 'unreachable';
      log(`deposit create failed: ${code}`);
      res.status(502).json({ error: code });
    }
  });

  // Kasa's webhooks: verify on the raw bytes, apply once per eventId, answer 2xx quickly.
  app.post('/webhooks/kasa', express.raw({ type: '*/*', limit: '256kb' }), (req, res) => {
    let event;
    try {
      event = verifyWebhook({ secret: options.webhookSecrets(), headers: req.headers, rawBody: req.body as Buffer });
    } catch (error) {
      log(`webhook refused: ${error instanceof WebhookVerificationError ? error.reason : 'unreadable'}`);
      res.status(401).end();
      return;
    }
    const owner = event.type === 'intent.approved' && 'intentId' in event.data ? store.userOf(event.data.intentId) : undefined;
    if (owner !== undefined) {
      // `amount` is what the operator approved: it may be less than the deposit asked for.
      const applied = store.credit(event.eventId, owner, BigInt(event.data.amount));
      log(`${event.type} ${event.eventId}: ${applied ? `credited ${event.data.amount} to ${owner}` : 'already applied'}`);
    } else {
      const first = store.seen(event.eventId);
      log(`${event.type} ${event.eventId}: ${first ? 'noted' : 'already seen'}`);
    }
    res.status(204).end();
  });

  return app;
}
