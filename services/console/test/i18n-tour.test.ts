/**
 * A tour of every console page in Turkish and in English, each page loaded once per language and checked on a
 * desktop (1280x800) and, resized in the same load, on a phone (390x844): each Turkish page must hold no English
 * (expectTurkish) and every page must be clean under axe-core at both sizes (the console's layout is CSS only, no
 * script reads the window's size, so a resized page is the page a phone loads). With KASA_SCREENSHOTS=1 full-page
 * screenshots of both sizes go to docs/screenshots/i18n/<page>-<lang>-<desktop|phone>.png; without it none are taken
 * (they check nothing and cost a third of the tour). A failing page is named with what failed, all pages first, so
 * one run shows the whole state.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { DECLARED_KINDS } from '../src/i18n/declared.js';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';
import { loginInBrowser } from './harness.js';
import { englishLeftovers, expectTurkish } from './i18n-pages.js';

const SHOTS = process.env.KASA_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/screenshots/i18n', import.meta.url)) : null;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
type Viewport = keyof typeof VIEWPORTS;
const LANGUAGES = { tr: 'tr-TR', en: 'en-US' } as const;

const setup = useConsoleBrowser();

/** Each page of the tour by name, and its path (filled in once the records it shows exist). */
let pages: Array<[name: string, path: string]> = [];

function bodyOf<T>(result: { status: number; body: unknown }, status: number, what: string): T {
  if (result.status !== status) throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body as T;
}

beforeAll(async () => {
  const { h, site } = setup;
  // A deposit waiting for review (an exact match, so the bulk approval shows), one approved (an event to deliver).
  const waiting = await h.createDeposit(site, 150000, { externalUserLabel: 'Zeynep Kaya' });
  bodyOf(await h.transfer(waiting.referenceNo, 150000), 201, 'transfer');
  const approved = await h.createDeposit(site, 250000);
  bodyOf(await h.transfer(approved.referenceNo, 250000), 201, 'transfer');
  bodyOf(await h.ops('POST', `/intents/${approved.intentId}/approve`, {}), 200, 'approve deposit');
  // A withdrawal approved and batched for payout, and one waiting for review.
  await h.fund(site, 900000);
  const paidOut = await h.createWithdrawal(site, 120000);
  bodyOf(await h.ops('POST', `/withdrawals/${paidOut.withdrawalId}/approve`, {}), 200, 'approve withdrawal');
  const batch = bodyOf<{ batchId: string }>(await h.ops('POST', '/payout-batches', {}), 201, 'payout batch');
  const withdrawal = await h.createWithdrawal(site, 30000);
  // A transfer nobody asked for, going back to its sender.
  const stray = bodyOf<{ bankTransferId: string }>(await h.transfer('BILINMEYEN', 45000), 201, 'stray transfer');
  const returned = bodyOf<{ returnId: string }>(
    await h.ops('POST', `/bank-transfers/${stray.bankTransferId}/return`, { reason: 'Yanlış gönderim' }),
    201,
    'return',
  );
  const unmatched = bodyOf<{ bankTransferId: string }>(await h.transfer('KIMSESIZ', 6000), 201, 'unmatched transfer');
  const accounts = bodyOf<{ data: Array<{ id: string }> }>(await h.ops('GET', '/receiving-accounts'), 200, 'accounts');
  const account = accounts.data[0]?.id as string;
  const events = bodyOf<{ data: Array<{ eventId: string }> }>(await h.ops('GET', `/events?siteId=${site.siteId}`), 200, 'events');
  const event = events.data[0]?.eventId as string;

  pages = [
    ['dashboard', '/'],
    ['review', '/review'],
    ['deposits', '/deposits'],
    ['deposit', `/intents/${waiting.intentId}`],
    ['withdrawals', '/withdrawals'],
    ['withdrawal', `/withdrawals/${withdrawal.withdrawalId}`],
    ['payouts', '/payouts'],
    ['payout-batch', `/payouts/${batch.batchId}`],
    ['transfers', '/bank-transfers'],
    ['transfer', `/bank-transfers/${unmatched.bankTransferId}`],
    ['record-transfer', '/bank-transfers/record'],
    ['statements', '/statements'],
    ['returns', '/returns'],
    ['return', `/returns/${returned.returnId}`],
    ['deliveries', '/deliveries'],
    ['delivery', `/deliveries/${event}`],
    ['sites', '/sites'],
    ['site', `/sites/${site.siteId}`],
    ['balances', '/balances'],
    ['reconciliation', '/reconciliation'],
    ['reconciliation-account', `/reconciliation/${account}`],
    ['bank-accounts', '/receiving-accounts'],
    ['bank-account', `/receiving-accounts/${account}`],
    ['audit', '/audit'],
    ['search', `/search?q=${waiting.referenceNo}`],
    ['two-factor', '/account/2fa'],
    ['not-found', '/no-such-page'],
  ];
  // Every kind that declares its console pages, toured as declared: its list, and a record another operator made
  // with the declaration's sample (so the page shows its steps' forms), after the page its navigation link follows.
  for (const { console: declared, operations } of DECLARED_KINDS) {
    const { create, section, path, id, actor } = declared;
    const maker = await h.createOperator(actor);
    const session = bodyOf<{ token: string }>(
      await h.ops('POST', '/login', { email: maker.email, password: maker.password }),
      201,
      'login',
    );
    const operation = operations[create.operation];
    const made = bodyOf<Record<string, string>>(
      await h.ops(operation.method, operation.path.replace(':siteId', site.siteId), create.sample, session.token),
      201,
      `${section.name}: ${create.operation}`,
    );
    const after = pages.findIndex(([name]) => name === section.after);
    pages.splice(after === -1 ? pages.length - 1 : after + 1, 0, [section.name, path], [`${section.name}-record`, `${path}/${made[id]}`]);
  }
});

/**
 * Visits one page at the desktop size, checks its language, then checks it under axe at each size (resizing the
 * loaded page), screenshotting it when asked; returns what is wrong with it (nothing when it passes). The page is
 * left at the desktop size for the next visit.
 */
async function visit(page: Page, name: string, path: string, lang: keyof typeof LANGUAGES): Promise<string[]> {
  const problems: string[] = [];
  await page.setViewportSize(VIEWPORTS.desktop);
  const answer = await page.goto(path);
  const status = answer?.status() ?? 0;
  if (status !== 200 && !(name === 'not-found' && status === 404)) problems.push(`answered ${status}`);
  const html = await page.content();
  if (lang === 'tr') {
    try {
      expectTurkish(html);
    } catch (error) {
      problems.push((error as Error).message);
    }
    // What an operator reads besides the text: tooltips, field hints, screen-reader names and confirm questions.
    // An element marked English (the language switch) is meant for an English reader.
    for (const [tag] of html.matchAll(/<[a-z][^>]*>/g)) {
      if (/\slang="en\b/.test(tag)) continue;
      for (const [, attribute, value] of tag.matchAll(/\s(title|aria-label|placeholder|alt|data-confirm)="([^"]*)"/g))
        for (const found of englishLeftovers(value ?? '')) problems.push(`${attribute}: ${found}`);
    }
  } else if (!html.includes('<html lang="en">')) {
    problems.push('not in English');
  }
  const byViewport: string[] = [];
  for (const viewport of Object.keys(VIEWPORTS) as Viewport[]) {
    if (viewport !== 'desktop') await page.setViewportSize(VIEWPORTS[viewport]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${lang}-${viewport}.png`), fullPage: true });
    const findings = await axeFindings(page);
    if (findings.length > 0) byViewport.push(`${viewport}: axe: ${findings.join(', ')}`);
  }
  return [
    ...problems.map((problem) => `${name} (${path}) ${lang}: ${problem}`),
    ...byViewport.map((found) => `${name} (${path}) ${lang} ${found}`),
  ];
}

describe('the console in Turkish and English', () => {
  for (const [lang, locale] of Object.entries(LANGUAGES) as Array<[keyof typeof LANGUAGES, 'tr-TR' | 'en-US']>) {
    it(`shows every page in ${lang === 'tr' ? 'Turkish' : 'English'} on a desktop and a phone, clean under axe`, async () => {
      const { h, admin } = setup;
      const failures: string[] = [];
      const anonymous = await h.browser.newContext({ baseURL: h.console.url, locale });
      failures.push(...(await visit(await anonymous.newPage(), 'login', '/login', lang)));
      await anonymous.close();

      const { context, page } = await loginInBrowser(h.browser, h.console.url, admin, '/review', locale);
      if (lang === 'tr') {
        // The page script speaks the page's language (client.* messages): the bulk approval's button.
        await expect(page.locator('[data-bulk-submit]').textContent()).resolves.toBe('Seçilenleri onayla (0)');
      }
      for (const [name, path] of pages) failures.push(...(await visit(page, name, path, lang)));
      await context.close();
      if (failures.length > 0) console.log(`Pages that failed (${failures.length}):\n${failures.join('\n')}`);
      expect(failures).toEqual([]);
    }, 600_000);
  }
});
