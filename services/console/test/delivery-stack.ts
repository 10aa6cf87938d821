/**
 * The console with the whole delivery path behind it, for the deliveries and webhook-URL tests: a real ledger and
 * console (as in ./harness.ts), the webhook worker in-process, and an HTTPS receiver whose CA the test makes and both
 * the worker and the ledger (its test webhooks) trust. The retry delay is ten minutes, so an attempt made during a
 * test was made because an operator brought it forward.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLedger, type LedgerService } from '@kasa/ledger';
import {
  createTestEnvironment,
  launchChromium,
  Scenario,
  type ScenarioOperator,
  type ScenarioSite,
  type TestEnvironment,
} from '@kasa/testkit';
import { startWorker, type WebhookWorkerService } from '../../webhook-worker/src/index.js';
import { makeTestTls, startReceiver, type Receiver, type TestTls } from '../../webhook-worker/test/support/receiver.js';
import { startConsole, type ConsoleService } from '../src/index.js';
import { loginInBrowser } from './harness.js';

export const RETRY_DELAY_MS = 10 * 60 * 1000;

export interface DeliveryStack {
  env: TestEnvironment;
  ledger: LedgerService;
  console: ConsoleService;
  worker: WebhookWorkerService;
  receiver: Receiver;
  browser: Browser;
  scenario: Scenario;
  /** How each receiver path answers its n-th request (from 1); 200 for a path not here. */
  answers: Map<string, (n: number) => number>;
  /** A site whose webhooks go to a path of its own on the receiver, answered by `answer`. */
  siteAnsweredBy(answer: (n: number) => number): Promise<{ site: ScenarioSite; path: string }>;
  /** What the receiver got on `path`. */
  receivedOn(path: string): Receiver['deliveries'];
  login(operator: ScenarioOperator): Promise<{ context: BrowserContext; page: Page }>;
  stop(): Promise<void>;
}

export async function startDeliveryStack(): Promise<DeliveryStack> {
  const tls: TestTls = makeTestTls();
  const env = await createTestEnvironment({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    WEBHOOK_CA_FILE: tls.caFile,
    WEBHOOK_RETRY_DELAY_MS: String(RETRY_DELAY_MS),
    WEBHOOK_TIMEOUT_MS: '5000',
  });
  const ledger = await startLedger(env.config, 0);
  const consoleService = await startConsole({ ...env.config, ledgerUrl: ledger.url }, 0);
  const answers = new Map<string, (n: number) => number>();
  const receiver: Receiver = await startReceiver(tls, (delivery) => {
    const answer = answers.get(delivery.path);
    return answer ? answer(receiver.deliveries.filter((d) => d.path === delivery.path).length) : 200;
  });
  const worker = await startWorker(env.config, 0, { ca: tls.ca });
  const browser = await launchChromium();
  const scenario = new Scenario({
    ledgerUrl: ledger.url,
    opsToken: env.config.opsBootstrapToken,
    internalToken: env.config.internalToken,
    slugPrefix: 'd',
  });
  await scenario.createReceivingAccount();

  return {
    env,
    ledger,
    console: consoleService,
    worker,
    receiver,
    browser,
    scenario,
    answers,
    async siteAnsweredBy(answer) {
      const path = `/webhooks/${randomUUID()}`;
      answers.set(path, answer);
      const site = await scenario.createSite({ webhookUrl: `https://localhost:${receiver.port}${path}` });
      return { site, path };
    },
    receivedOn: (path) => receiver.deliveries.filter((d) => d.path === path),
    // Wherever the console opens after login (the tests go to their own pages).
    login: (operator) => loginInBrowser(browser, consoleService.url, operator),
    async stop() {
      await browser.close();
      await worker.stop();
      await receiver.close();
      await consoleService.stop();
      await ledger.stop();
      await env.cleanup();
      tls.cleanup();
    },
  };
}
