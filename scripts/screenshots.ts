/**
 * `npm run screenshots`: every hosted-page state (phone and desktop, Turkish and English) and every console
 * page, as PNGs in docs/screenshots/ with an index (docs/screenshots/README.md). It starts its own ledger,
 * gateway and console on free ports over a fresh database and Redis prefix, and drives each state through
 * the real APIs only (partner creates, ops transfers and decisions), never through page internals.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { startLedger } from '@kasa/ledger';
import { createTestEnvironment, launchChromium, Scenario, totpCode } from '@kasa/testkit';
import { startConsole } from '../services/console/src/index.js';
import { startGateway } from '../services/gateway/src/index.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');
const VIEWPORTS = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 800 } } as const;
const LANGUAGES = { tr: 'tr-TR', en: 'en-US' } as const;

interface Shot {
  file: string;
  what: string;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const env = await createTestEnvironment({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const ledger = await startLedger(env.config, 0);
  const gateway = await startGateway({ ...env.config, ledgerUrl: ledger.url }, 0);
  const consoleService = await startConsole({ ...env.config, ledgerUrl: ledger.url }, 0);
  const browser = await launchChromium();
  const shots: Shot[] = [];
  try {
    const scenario = new Scenario({
      ledgerUrl: ledger.url,
      opsToken: env.config.opsBootstrapToken,
      internalToken: env.config.internalToken,
      slugPrefix: 'shot',
    });
    await scenario.createReceivingAccount({ bankName: 'Örnek Bankası', holderName: 'Kasa Ödeme Hizmetleri A.Ş.' });
    const site = await scenario.createSite({ name: 'Örnek Bahis' });
    const shortLived = await scenario.createSite({ name: 'Örnek Bahis', depositTtlSeconds: 1 });
    const pagePath = async (siteId: string, amount: string, extra: Record<string, unknown> = {}) => {
      const created = await scenario.partnerCreate(siteId, 'deposits', {
        externalUserId: `u-${scenario.unique()}`,
        amount,
        returnUrl: 'https://ornek-bahis.example/hesabim',
        ...extra,
      });
      if (created.status !== 201) throw new Error(`create deposit: ${created.status} ${JSON.stringify(created.body)}`);
      const body = created.body as { intentId: string; referenceNo: string; depositUrl: string };
      return { ...body, path: new URL(body.depositUrl).pathname };
    };

    // Each hosted-page state, reached through the APIs.
    const waiting = await pagePath(site.siteId, '150000');
    const confirmed = await pagePath(site.siteId, '150000');
    await fetch(`${gateway.url}${confirmed.path}/confirm`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    const received = await pagePath(site.siteId, '80000');
    await scenario.transfer(received.referenceNo, '80000');
    const partial = await pagePath(site.siteId, '80000');
    await scenario.transfer(partial.referenceNo, '75000');
    await scenario.approveDeposit(partial.intentId, { amount: '75000' });
    const rejected = await pagePath(site.siteId, '50000');
    await scenario.transfer(rejected.referenceNo, '50000');
    await scenario.ops('POST', `/intents/${rejected.intentId}/reject`, { reason: 'Gönderen adı kullanıcıyla eşleşmiyor' });
    const rejectedWithReason = await pagePath(site.siteId, '50000');
    await scenario.transfer(rejectedWithReason.referenceNo, '50000');
    await scenario.ops('POST', `/intents/${rejectedWithReason.intentId}/reject`, {
      reason: 'Gönderen adı kullanıcıyla eşleşmiyor',
      userReason: 'SENDER_NOT_ACCOUNT_HOLDER',
    });
    const expired = await pagePath(shortLived.siteId, '60000');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // A sandbox's (test) deposit: the "Test mode" banner and "Simulate the transfer", then the page after a press.
    const issued = await scenario.ops('POST', `/sites/${site.siteId}/api-keys`, { mode: 'test' });
    if (issued.status !== 201) throw new Error(`issue test key: ${issued.status} ${JSON.stringify(issued.body)}`);
    const sandboxId = (issued.body as { siteId: string }).siteId;
    const testWaiting = await pagePath(sandboxId, '150000', { externalUserLabel: 'Ayşe Yılmaz' });
    const testSimulated = await pagePath(sandboxId, '150000', { externalUserLabel: 'Ayşe Yılmaz' });
    await fetch(`${gateway.url}${testSimulated.path}/simulate`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin' },
      redirect: 'manual',
    });
    const states: [string, string, string][] = [
      ['waiting', waiting.path, 'waiting for the transfer: amount, reference, grouped IBAN, countdown, "I have sent the transfer"'],
      ['confirmed', confirmed.path, 'after "I have sent the transfer": what happens next'],
      ['received', received.path, 'transfer received, under review'],
      ['approved-partial', partial.path, 'approved for less than requested: the credited amount and the requested one'],
      ['rejected', rejected.path, 'rejected with the general text (the internal reason is not shown)'],
      ['rejected-reason', rejectedWithReason.path, 'rejected with the reason the operator picked for the user'],
      ['expired', expired.path, 'expired, with what to do if money was sent late'],
      ['unknown-link', `/deposit/${'x'.repeat(43)}`, 'an unknown or dead link'],
    ];
    for (const [name, path, what] of states) {
      for (const [lang, locale] of Object.entries(LANGUAGES)) {
        for (const [device, viewport] of Object.entries(VIEWPORTS)) {
          const file = `hosted-${name}-${device}-${lang}.png`;
          await capture(browser, `${gateway.url}${path}`, join(OUT, file), { viewport, locale });
          shots.push({ file, what: `Hosted page, ${what} (${device}, ${lang === 'tr' ? 'Turkish' : 'English'})` });
        }
      }
    }

    for (const [name, path, what] of [
      ['test-mode', testWaiting.path, 'a test deposit: the "Test mode" banner and "Simulate the transfer"'],
      ['test-mode-simulated', testSimulated.path, 'a test deposit after "Simulate the transfer": received, still marked test mode'],
    ] as const) {
      for (const [device, viewport] of Object.entries(VIEWPORTS)) {
        const file = `hosted-${name}-${device}-tr.png`;
        await capture(browser, `${gateway.url}${path}`, join(OUT, file), { viewport, locale: LANGUAGES.tr });
        shots.push({ file, what: `Hosted page, ${what} (${device}, Turkish)` });
      }
    }

    // Every console page, as an admin sees it with some traffic in it.
    const admin = await scenario.createOperator('ADMIN');
    const waitingReview = await scenario.createDeposit(site.siteId, '125000');
    await scenario.transfer(waitingReview.referenceNo, '125000');
    await scenario.transfer('', '33300');
    await scenario.fund(site.siteId, '900000');
    const withdrawal = await scenario.createWithdrawal(site.siteId, '40000');
    // A payout batch: two approved withdrawals put into a file for the bank.
    for (const amount of ['125000', '60000']) {
      const batched = await scenario.createWithdrawal(site.siteId, amount);
      await scenario.ops('POST', `/withdrawals/${batched.withdrawalId}/approve`);
    }
    await scenario.ops('POST', '/payout-batches', {});
    // Four-eyes: above the site's threshold a withdrawal waits for its second approval ("1 of 2").
    await scenario.ops('PATCH', `/sites/${site.siteId}`, { dualApprovalAbove: '100000' });
    const fourEyes = await scenario.createWithdrawal(site.siteId, '250000');
    const firstApprover = await scenario.createOperator('REVIEWER');
    const firstApproverToken = await scenario.login(firstApprover);
    await scenario.ops('POST', `/withdrawals/${fourEyes.withdrawalId}/approve`, {}, firstApproverToken);
    // Refused actions for the audit log: the same approver again (four-eyes), a reviewer's admin-only request (403) and a
    // wrong password.
    await scenario.ops('POST', `/withdrawals/${fourEyes.withdrawalId}/approve`, {}, firstApproverToken);
    await scenario.ops(
      'POST',
      '/operators',
      { email: 'someone@example.com', password: 'long-enough-pass-1', role: 'ADMIN' },
      firstApproverToken,
    );
    await scenario.ops('POST', '/login', { email: firstApprover.email, password: 'not-the-password-1234' });
    // The desk: a deposit paid by two transfers, one from a sender whose name is not the user's; a transfer set aside.
    const split = await scenario.createDeposit(site.siteId, '60000', { externalUserLabel: 'Ayşe Yılmaz' });
    await scenario.transfer(split.referenceNo, '35000', { senderName: 'AYSE YILMAZ' });
    await scenario.transfer(split.referenceNo, '25000', { senderName: 'MEHMET DEMIR' });
    const stray = await scenario.transfer('', '27500', { senderName: 'MEHMET DEMIR' });
    await scenario.ops('POST', `/bank-transfers/${(stray.body as { bankTransferId: string }).bankTransferId}/return`, {
      reason: 'No deposit of his; he asked for it back',
    });
    const held = await scenario.transfer('', '48000', { senderName: 'ZEYNEP KAYA' });
    await scenario.ops('POST', `/bank-transfers/${(held.body as { bankTransferId: string }).bankTransferId}/set-aside`, {
      reason: 'Sender asked us to hold it until she sends her reference',
    });
    // A reference typed one character wrong: the transfer waits unmatched with the deposit suggested.
    const near = await scenario.createDeposit(site.siteId, '70000', { externalUserLabel: 'Zeynep Kaya' });
    const typo = near.referenceNo.slice(0, 4) + (near.referenceNo[4] === 'X' ? 'Y' : 'X') + near.referenceNo.slice(5);
    const suggested = await scenario.transfer(typo, '70000', { senderName: 'ZEYNEP KAYA' });
    const suggestedId = (suggested.body as { bankTransferId: string }).bankTransferId;
    // Partial money: one deposit short in the queue, one waiting for the rest; money for an approved deposit (a top-up).
    const short = await scenario.createDeposit(site.siteId, '100000');
    await scenario.transfer(short.referenceNo, '60000');
    const waitingRest = await scenario.createDeposit(site.siteId, '80000');
    await scenario.transfer(waitingRest.referenceNo, '30000');
    await scenario.ops('POST', `/intents/${waitingRest.intentId}/wait-for-rest`);
    const paid = await scenario.createDeposit(site.siteId, '50000');
    await scenario.transfer(paid.referenceNo, '50000');
    await scenario.ops('POST', `/intents/${paid.intentId}/approve`, {});
    const again = await scenario.transfer(paid.referenceNo, '20000');
    const againId = (again.body as { bankTransferId: string }).bankTransferId;
    // A transfer recorded by hand, then the bank's own line with its bank tx id for another amount: a difference to look at.
    const handEntry = await scenario.transfer('', '41000', { senderName: 'ALİ VURAL', bankTxId: 'HAVALE-20261127-0042' });
    const handEntryId = (handEntry.body as { bankTransferId: string }).bankTransferId;
    await scenario.ops('POST', `/receiving-accounts/${(handEntry.body as { receivingAccountId: string }).receivingAccountId}/lines`, {
      lines: [
        {
          bankTxId: 'HAVALE-20261127-0042',
          direction: 'credit',
          amount: '14000',
          receivedAt: new Date().toISOString(),
          senderName: 'ALİ VURAL',
          senderIban: 'TR33 0006 1005 1978 6457 8413 26',
          description: 'HAVALE',
        },
      ],
    });
    // Simulated money with no reference, sent back by an operator: the sandbox plays the return out at once, marked TEST.
    const simulated = await scenario.internal('POST', `/sites/${sandboxId}/test/deposits/${testWaiting.intentId}/transfers`, {
      apiKeyId: (issued.body as { apiKeyId: string }).apiKeyId,
      request: { reference: '', amount: '22000' },
    });
    await scenario.ops('POST', `/bank-transfers/${(simulated.body as { bankTransferId: string }).bankTransferId}/return`, {
      reason: 'Sandbox: no deposit of the user',
    });
    // Sanctions screening: a national list naming one beneficiary, whose withdrawal is held for a compliance decision.
    const listed = await fetch(`${ledger.url}/ops/v1/screening/lists?source=csv&list=tr-masak-6415`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
      body:
        'id,kind,name,aliases,program,listed_on,birth_date,nationality\n' +
        'TR-6415-0001,individual,Şükrü Çağlayan Öztürkmen,Sukru Caglayan,6415,2021-03-05,1978-04-12,Türkiye\n',
    });
    if (listed.status !== 201) throw new Error(`screening list import answered ${listed.status}`);
    await scenario.createWithdrawal(site.siteId, '64000', { targetHolderName: 'OZTURKMEN SUKRU CAGLAYAN' });
    const context = await browser.newContext({ baseURL: consoleService.url, viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto('/login');
    await page.screenshot({ path: join(OUT, 'console-login.png'), fullPage: true });
    shots.push({ file: 'console-login.png', what: 'Console: log in' });
    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    // A KVKK erasure request for a user with a deposit inside its retention: answered, the deposit waiting.
    await scenario.createDeposit(site.siteId, 25000, { externalUserId: 'kvkk-demo', externalUserLabel: 'Elif Şahin' });
    const erasure = await scenario.ops('POST', '/erasure-requests', {
      siteId: site.siteId,
      externalUserId: 'kvkk-demo',
      reason: 'KVKK-2026-42',
    });
    const erasureRequestId = (erasure.body as { erasureRequestId: string }).erasureRequestId;
    // A risk flag: a deposit of a user the partner names Elif Şahin, paid and approved from Mehmet Demir's account,
    // which the ledger's risk worker flags (name_mismatch) for a compliance review.
    const mismatched = await scenario.createDeposit(site.siteId, 42000, { externalUserId: 'risk-demo', externalUserLabel: 'Elif Şahin' });
    await scenario.transfer(mismatched.referenceNo, '42000', { senderName: 'MEHMET DEMIR' });
    await scenario.approveDeposit(mismatched.intentId);
    const riskFlagId = await waitForRiskFlag(scenario, 'risk-demo');
    // Balance adjustments another admin proposed, waiting for a second admin: a fee refunded, a settlement corrected.
    const proposer = await scenario.createOperator('ADMIN');
    const proposerToken = await scenario.login(proposer);
    const adjustments: string[] = [];
    for (const [direction, amount, reason] of [
      ['credit', '25000', 'Refund of the November fee charged twice (ticket 4711)'],
      ['debit', '12000', 'Settlement of 27 November counted twice (ticket 4720)'],
    ] as const) {
      const proposed = await scenario.ops(
        'POST',
        `/sites/${site.siteId}/balance-adjustments`,
        { direction, amount, reason },
        proposerToken,
      );
      if (proposed.status !== 201) throw new Error(`propose adjustment: ${proposed.status} ${JSON.stringify(proposed.body)}`);
      adjustments.push((proposed.body as { adjustmentId: string }).adjustmentId);
    }
    const adjustmentId = adjustments[0] as string;
    const consolePages: [string, string, string][] = [
      ['console-dashboard.png', '/', 'Console: the dashboard, each queue with its count and oldest item, and the webhook auto-replay line'],
      [
        'console-review.png',
        '/review',
        'Console: the review queue, oldest first with the waiting time; a short deposit, and one waiting for the rest',
      ],
      ['console-deposits.png', '/deposits', 'Console: every deposit, with filters'],
      [
        'console-deposits-export.png',
        `/deposits?siteId=${site.siteId}&min=100`,
        "Console: one site's deposits from 100,00 ₺, with Export CSV of every row those filters select",
      ],
      ['console-search.png', `/search?q=${encodeURIComponent(waitingReview.referenceNo.toLowerCase())}`, 'Console: search by a reference'],
      ['console-intent.png', `/intents/${waitingReview.intentId}`, 'Console: one deposit intent with its actions'],
      ['console-bank-transfers.png', '/bank-transfers', 'Console: bank transfers, with an unmatched one'],
      ['console-bank-transfers-set-aside.png', '/bank-transfers?status=SET_ASIDE', 'Console: a transfer set aside with its reason'],
      [
        'console-bank-transfer-suggested.png',
        `/bank-transfers/${suggestedId}`,
        'Console: a transfer with a reference one character off, its reasons and the suggested deposit',
      ],
      [
        'console-bank-transfer-top-up.png',
        `/bank-transfers/${againId}`,
        'Console: money for a deposit approved already, offered as a top-up or a return to its sender',
      ],
      ['console-record-transfer.png', '/bank-transfers/record', 'Console: record one transfer by hand'],
      ['console-statements.png', '/statements', 'Console: import a bank statement'],
      ['console-returns.png', '/returns', 'Console: a return to its sender waiting for review'],
      [
        'console-returns-test.png',
        '/returns?mode=test&status=SENT',
        "Console: a sandbox's return of simulated money, played out at once and marked TEST (never in the live queue)",
      ],
      [
        'console-bank-transfer-difference.png',
        `/bank-transfers/${handEntryId}`,
        'Console: a transfer recorded by hand whose bank line came in for another amount: the difference, credited once',
      ],
      ['console-intent-split.png', `/intents/${split.intentId}`, 'Console: a deposit paid by two transfers, one sender flagged'],
      ['console-withdrawals.png', '/withdrawals', 'Console: withdrawals'],
      ['console-payouts.png', '/payouts', 'Console: payout batches, made into pain.001 files for the bank'],
      ['console-screening.png', '/screening', 'Console: the sanctions screening queue, a held payout with its matched entry and score'],
      ['console-withdrawal.png', `/withdrawals/${withdrawal.withdrawalId}`, 'Console: one withdrawal with its actions'],
      [
        'console-withdrawal-four-eyes.png',
        `/withdrawals/${fourEyes.withdrawalId}`,
        'Console: a withdrawal above its four-eyes threshold after its first approval (1 of 2)',
      ],
      ['console-deliveries.png', '/deliveries', 'Console: webhook deliveries'],
      [
        'console-deliveries-site.png',
        `/deliveries?siteId=${site.siteId}`,
        "Console: one site's events named by type, reference and user, with attempts, next attempt and Retry now",
      ],
      [
        'console-site-webhook-saved.png',
        `/sites/${site.siteId}?webhook=saved#webhook`,
        'Console: a webhook URL just saved, with Send a test webhook',
      ],
      ['console-sites.png', '/sites', 'Console: sites'],
      ['console-site-keys.png', `/sites/${site.siteId}`, "Console: a site's API keys"],
      ['console-balances.png', '/balances', 'Console: site balances'],
      [
        'console-balance-adjustments.png',
        '/balance-adjustments',
        'Console: balance adjustments waiting for a second admin, oldest first, and the form to propose one',
      ],
      [
        'console-balance-adjustment.png',
        `/balance-adjustments/${adjustmentId}`,
        'Console: a balance adjustment another admin proposed, with Apply and Reject (always four-eyes)',
      ],
      ['console-reconciliation.png', '/reconciliation', "Console: each receiving account's statement balance against Kasa's bookings"],
      ['console-audit.png', '/audit', 'Console: the audit log'],
      ['console-erasure.png', '/erasure-requests', 'Console: KVKK erasure requests with their 30-day timer, and the form to file one'],
      [
        'console-erasure-request.png',
        `/erasure-requests/${erasureRequestId}`,
        'Console: an erasure request: what was anonymised, and what waits for which hold',
      ],
      [
        'console-risk-flags.png',
        '/risk-flags',
        'Console: the risk flags review queue with each review deadline, and the report for the authority',
      ],
      [
        'console-risk-flag.png',
        `/risk-flags/${riskFlagId}`,
        "Console: a risk flag: what the rule found, the flagged record and the compliance officer's review form",
      ],
    ];
    for (const [file, path, what] of consolePages) {
      await page.goto(path);
      await page.screenshot({ path: join(OUT, file), fullPage: true });
      shots.push({ file, what });
    }
    // Keyboard: the shortcut help over the review queue (`?`), and the confirm a keyboard approval asks.
    await page.goto('/review');
    await page.keyboard.press('?');
    await page.screenshot({ path: join(OUT, 'console-shortcuts.png') });
    shots.push({ file: 'console-shortcuts.png', what: 'Console: the keyboard shortcuts (press ?) over the review queue' });
    await page.keyboard.press('Escape');
    // A tablet and a phone, for read-only checks away from the desk.
    for (const [file, path, width, what] of [
      ['console-review-768.png', '/review', 768, 'Console: the review queue on a 768 px tablet'],
      ['console-audit-phone.png', '/audit', 390, 'Console: the audit log on a phone, refused actions among the entries'],
      ['console-dashboard-phone.png', '/', 390, 'Console: the dashboard on a phone'],
      ['console-screening-phone.png', '/screening', 390, 'Console: the sanctions screening queue on a phone'],
      ['console-erasure-phone.png', '/erasure-requests', 390, 'Console: erasure requests on a phone'],
      ['console-balance-adjustments-phone.png', '/balance-adjustments', 390, 'Console: balance adjustments on a phone'],
      [
        'console-balance-adjustment-phone.png',
        `/balance-adjustments/${adjustmentId}`,
        390,
        'Console: a balance adjustment and its Apply and Reject forms on a phone',
      ],
      ['console-risk-flags-phone.png', '/risk-flags', 390, 'Console: the risk flags review queue on a phone'],
      ['console-risk-flag-phone.png', `/risk-flags/${riskFlagId}`, 390, 'Console: a risk flag and its review form on a phone'],
      ['console-bank-transfer-suggested-phone.png', `/bank-transfers/${suggestedId}`, 390, 'Console: a suggested transfer on a phone'],
      ['console-bank-transfer-difference-phone.png', `/bank-transfers/${handEntryId}`, 390, 'Console: a bank line difference on a phone'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await page.screenshot({ path: join(OUT, file), fullPage: true });
      shots.push({ file, what });
    }
    await context.close();

    // Two-factor authentication: enrollment by QR, the recovery codes shown once, and the login form asking for the code.
    const enrolling = await scenario.createOperator('REVIEWER');
    const twoFactor = await browser.newContext({ baseURL: consoleService.url, viewport: VIEWPORTS.desktop });
    const tf = await twoFactor.newPage();
    await tf.goto('/login');
    await tf.getByLabel('E-mail').fill(enrolling.email);
    await tf.getByLabel('Password').fill(enrolling.password);
    await tf.getByRole('button', { name: 'Log in' }).click();
    await tf.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    await tf.goto('/account/2fa');
    await tf.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await tf.screenshot({ path: join(OUT, 'console-2fa-enroll.png'), fullPage: true });
    shots.push({ file: 'console-2fa-enroll.png', what: 'Console: setting up two-factor authentication, the QR code and key shown once' });
    const secret = (await tf.locator('code.secret').textContent()) ?? '';
    await tf.getByLabel('Code', { exact: true }).fill(totpCode(secret));
    await tf.getByRole('button', { name: 'Turn on' }).click();
    await tf.screenshot({ path: join(OUT, 'console-2fa-recovery-codes.png'), fullPage: true });
    shots.push({ file: 'console-2fa-recovery-codes.png', what: 'Console: two-factor authentication on, the recovery codes shown once' });
    await twoFactor.close();
    const codeLogin = await browser.newContext({ baseURL: consoleService.url, viewport: VIEWPORTS.desktop });
    const cl = await codeLogin.newPage();
    await cl.goto('/login');
    await cl.getByLabel('E-mail').fill(enrolling.email);
    await cl.getByLabel('Password').fill(enrolling.password);
    await cl.getByRole('button', { name: 'Log in' }).click();
    await cl.getByLabel('Code from your authenticator app').waitFor();
    await cl.screenshot({ path: join(OUT, 'console-login-code.png'), fullPage: true });
    shots.push({ file: 'console-login-code.png', what: 'Console: log in to an account with a second factor, asking for the code' });
    await codeLogin.close();

    // Operator scopes: a reviewer limited to one site sees only its work, and a house-wide page refuses it.
    const scoped = await scenario.createOperator('REVIEWER');
    await scenario.ops('PATCH', `/operators/${scoped.operatorId}`, { siteIds: [site.siteId] });
    const scopedContext = await browser.newContext({ baseURL: consoleService.url, viewport: VIEWPORTS.desktop });
    const sp = await scopedContext.newPage();
    await sp.goto('/login');
    await sp.getByLabel('E-mail').fill(scoped.email);
    await sp.getByLabel('Password').fill(scoped.password);
    await sp.getByRole('button', { name: 'Log in' }).click();
    await sp.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    await sp.screenshot({ path: join(OUT, 'console-scoped-dashboard.png'), fullPage: true });
    shots.push({
      file: 'console-scoped-dashboard.png',
      what: "Console: the dashboard of an operator limited to one site, counting that site's work only",
    });
    await sp.goto('/reconciliation');
    await sp.screenshot({ path: join(OUT, 'console-scoped-house-wide.png'), fullPage: true });
    shots.push({
      file: 'console-scoped-house-wide.png',
      what: 'Console: a house-wide page (reconciliation) refusing an operator limited to some sites',
    });
    await scopedContext.close();

    // Written as the repository's formatter would, so `npm run format:check` stays green after a re-run.
    const index = join(OUT, 'README.md');
    writeFileSync(
      index,
      await prettier.format(
        `# Screenshots\n\nMade by \`npm run screenshots\` (scripts/screenshots.ts) from a fresh suite, every state reached through the\nAPIs. Re-run it after a change to a page.\n\n| file | what it shows |\n| --- | --- |\n${shots
          .map((shot) => `| [${shot.file}](${shot.file}) | ${shot.what} |`)
          .join('\n')}\n`,
        { ...(await prettier.resolveConfig(index)), filepath: index },
      ),
    );
    process.stdout.write(`${shots.length} screenshots in docs/screenshots/\n`);
  } finally {
    await browser.close();
    await consoleService.stop();
    await gateway.stop();
    await ledger.stop();
    await env.cleanup();
  }
}

/** The id of the risk flag the ledger's risk worker raises for `externalUserId`, once it has (a minute at most). */
async function waitForRiskFlag(scenario: Scenario, externalUserId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listed = await scenario.ops('GET', '/risk-flags');
    const flags = (listed.body as { data?: Array<{ id: string; externalUserId: string | null }> }).data ?? [];
    const flag = flags.find((f) => f.externalUserId === externalUserId);
    if (flag) return flag.id;
    if (Date.now() > deadline) throw new Error(`no risk flag for ${externalUserId} within 60 s (${listed.status})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function capture(
  browser: Browser,
  url: string,
  path: string,
  options: { viewport: { width: number; height: number }; locale: string },
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(url);
  await page.screenshot({ path, fullPage: true });
  await context.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
