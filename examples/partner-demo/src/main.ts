/**
 * Runs the partner demo: `KASA_URL=http://127.0.0.1:8080 KASA_API_KEY=sk_test_... npx tsx examples/partner-demo/src/main.ts`
 * (`npm start` runs it for you on port 8084 with the demo site's TEST key: the sandbox, docs/sandbox.md, where the
 * transfer is simulated and no operator is needed; a live key works the same on live records). On start it points the site's webhook URL
 * at itself and keeps the signing secret it gets back (in memory; a restart rotates it again).
 */
import { join } from 'node:path';
import { KasaClient } from '@kasa/sdk';
import { createPartnerDemoApp } from './app.js';

const kasaUrl = process.env.KASA_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.KASA_API_KEY;
const port = Number(process.env.PARTNER_DEMO_PORT ?? 8084);
const publicUrl = process.env.PARTNER_DEMO_URL ?? `http://127.0.0.1:${port}`;
const storeFile = process.env.PARTNER_DEMO_STORE ?? join(process.cwd(), '.kasa', 'partner-demo.json');
if (!apiKey) {
  process.stderr.write('KASA_API_KEY is required (npm start prints the demo site test key and keeps it in .kasa/demo-api-key)\n');
  process.exit(2);
}

const config = await new KasaClient({ baseUrl: kasaUrl, apiKey }).webhookConfig.update({ webhookUrl: `${publicUrl}/webhooks/kasa` });
const secrets = [config.webhookSecret as string];
const app = createPartnerDemoApp({ kasaUrl, apiKey, webhookSecrets: () => secrets, publicUrl, storeFile });
app.listen(port, '127.0.0.1', () => process.stdout.write(`[partner-demo] listening on ${publicUrl}\n`));
