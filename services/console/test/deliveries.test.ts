/**
 * Deliveries that explain themselves (docs/console.md, Deliveries): each event is named by its type, the deposit's
 * reference and the user; a PENDING event shows when it is next attempted and can be retried now, as that attempt;
 * a site's DEAD events are replayed in bulk. The webhook worker delivers to a real HTTPS receiver; the retry delay
 * is ten minutes, so an attempt made within a test was brought forward by the operator.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import type { ScenarioOperator, ScenarioSite } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { axeFindings } from './axe.js';
import { RETRY_DELAY_MS, startDeliveryStack } from './delivery-stack.js';
import type { BrowserContext, Page } from 'playwright-core';

const SHOTS = '/tmp/shots-deliveries';
mkdirSync(SHOTS, { recursive: true });

const file = useHarness(startDeliveryStack, async (h) => {
  const reviewer = await h.scenario.createOperator('REVIEWER');
  return { reviewer, ...(await h.login(reviewer)) } as { reviewer: ScenarioOperator; context: BrowserContext; page: Page };
});

interface EventBody {
  eventId: string;
  type: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: Array<{ attemptNo: number; statusCode: number | null }>;
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const eventOf = async (eventId: string) => (await file.h.scenario.ops('GET', `/events/${eventId}`)).body as EventBody;

/** An approved deposit of `label`'s, whose intent.approved event is the site's only event; returns its id once written. */
async function approvedDeposit(site: ScenarioSite, label: string): Promise<{ eventId: string; referenceNo: string; userId: string }> {
  const { scenario } = file.h;
  const userId = `user-${scenario.unique()}`;
  const deposit = await scenario.createDeposit(site.siteId, 150000, { externalUserId: userId, externalUserLabel: label });
  expect((await scenario.transfer(deposit.referenceNo, 150000)).status).toBe(201);
  expect((await scenario.approveDeposit(deposit.intentId)).status).toBe(200);
  const list = await until('the event', async () => {
    const page = (await scenario.ops('GET', `/events?siteId=${site.siteId}`)).body as { data: EventBody[] };
    return page.data.length > 0 ? page.data : null;
  });
  return { eventId: list[0]!.eventId, referenceNo: deposit.referenceNo, userId };
}

/** Waits until the event has made `attempts` attempts and its job waits out the retry delay. */
async function waitingToRetry(eventId: string, attempts: number): Promise<EventBody> {
  const event = await until(`attempt ${attempts}`, async () => {
    const read = await eventOf(eventId);
    return read.attemptCount === attempts && read;
  });
  // The first delivery cycle's job is named by the event id (@kasa/queue, deliveryJobId).
  await until('the delayed retry', async () => (await file.h.ledger.deps.webhookQueue.getJob(eventId))?.isDelayed());
  return event;
}

/** Makes the event DEAD for real: eight failed attempts, the last seven brought forward through the ops API. */
async function dead(eventId: string): Promise<void> {
  for (let attempt = 1; attempt <= 7; attempt += 1) {
    await waitingToRetry(eventId, attempt);
    expect((await file.h.scenario.ops('POST', `/events/${eventId}/retry-now`, {})).status).toBe(202);
  }
  await until('DEAD', async () => (await eventOf(eventId)).status === 'DEAD');
}

describe('the deliveries page', () => {
  it("names a pending event by type, reference and user and shows its next attempt, then 'Retry now' delivers it as attempt 2", async () => {
    const { h, page } = file;
    const { site, path } = await h.siteAnsweredBy((n) => (n === 1 ? 500 : 200));
    const { eventId, referenceNo, userId } = await approvedDeposit(site, 'Ayşe Yılmaz');
    const waiting = await waitingToRetry(eventId, 1);
    expect(Date.parse(waiting.nextAttemptAt!)).toBeGreaterThan(Date.now() + RETRY_DELAY_MS / 2);

    await page.goto(`/deliveries?siteId=${site.siteId}`);
    const row = page.locator(`tr[data-id="${eventId}"]`);
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`).innerText();
    await expect(cell('Event')).resolves.toBe('intent.approved');
    await expect(cell('Reference')).resolves.toBe(referenceNo);
    await expect(cell('User')).resolves.toBe('Ayşe Yılmaz');
    await expect(cell('User id')).resolves.toBe(userId);
    await expect(cell('Status')).resolves.toBe('pending');
    await expect(cell('Attempts')).resolves.toBe('1 of 8');
    // The next attempt in Türkiye time and Turkish order, as every time on the console (formatTime).
    const next = new Intl.DateTimeFormat('tr-TR', {
      timeZone: 'Europe/Istanbul',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(waiting.nextAttemptAt!));
    await expect(cell('Next attempt')).resolves.toBe(next);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/deliveries-pending.png`, fullPage: true });

    await row.getByRole('button', { name: 'Retry now' }).click();
    await page.waitForURL(`**/deliveries/${eventId}?retried=2`);
    await expect(page.locator('main .notice').innerText()).resolves.toContain('Attempt 2 of 8 brought forward');

    const delivered = await until('the delivery', async () => {
      const read = await eventOf(eventId);
      return read.status === 'DELIVERED' && read;
    });
    expect(delivered.attempts.map((a) => [a.attemptNo, a.statusCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(h.receivedOn(path)).toHaveLength(2);

    await page.goto(`/deliveries/${eventId}`);
    const facts = await page.locator('main').innerText();
    expect(facts).toContain(referenceNo);
    expect(facts).toContain('Ayşe Yılmaz');
    expect(facts).toContain('2 of 8');
    await expect(page.getByRole('button', { name: 'Retry now' }).count()).resolves.toBe(0);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/delivery-detail.png`, fullPage: true });
  });

  it("replays all DEAD events of a site from the console, and only that site's", async () => {
    const { h, page, reviewer } = file;
    const { site, path } = await h.siteAnsweredBy(() => 500);
    const other = await h.siteAnsweredBy(() => 500);
    const first = await approvedDeposit(site, 'Mehmet Demir');
    const second = await approvedDeposit(site, 'Zeynep Kaya');
    const elsewhere = await approvedDeposit(other.site, 'Can Öztürk');
    for (const { eventId } of [first, second, elsewhere]) await dead(eventId);
    h.answers.delete(path);

    await page.goto(`/deliveries?status=DEAD&siteId=${site.siteId}`);
    await expect(page.locator('.site-replay').innerText()).resolves.toContain('2 DEAD events');
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/deliveries-dead.png`, fullPage: true });
    await page.getByRole('button', { name: 'Replay all DEAD events of this site' }).click();
    await page.waitForURL(`**/deliveries/sites/${site.siteId}/replay-dead`);
    await expect(page.locator('main .notice').innerText()).resolves.toContain(`Replayed 2 DEAD events of ${site.slug}`);
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/deliveries-replayed.png`, fullPage: true });

    for (const { eventId } of [first, second]) {
      await until('the new cycle delivered', async () => (await eventOf(eventId)).status === 'DELIVERED');
      const audit = await h.ledger.deps.db.auditLog.findMany({ where: { entityId: eventId, action: 'EVENT.REPLAYED' } });
      expect(audit).toEqual([expect.objectContaining({ actorType: 'OPERATOR', actorId: reviewer.operatorId })]);
    }
    expect((await eventOf(elsewhere.eventId)).status).toBe('DEAD');
  });
});

describe("a site's webhook URL", () => {
  it('is saved on its own form, then "Send a test webhook" right there reaches the new URL', async () => {
    const { h } = file;
    const admin = await h.scenario.createOperator('ADMIN');
    const { context, page } = await h.login(admin);
    const { site, path } = await h.siteAnsweredBy(() => 200);
    const before = (await h.scenario.ops('GET', `/sites/${site.siteId}`)).body as Record<string, unknown>;
    const newPath = `${path}-new`;

    await page.goto(`/sites/${site.siteId}`);
    await page.getByLabel('Webhook URL').fill(`https://localhost:${h.receiver.port}${newPath}`);
    await page.getByRole('button', { name: 'Save webhook URL' }).click();
    await page.waitForURL(`**/sites/${site.siteId}?webhook=saved#webhook`);
    const saved = page.locator('.webhook-saved');
    await expect(saved.innerText()).resolves.toContain('Webhook URL saved');
    await expect(axeFindings(page)).resolves.toEqual([]);
    await page.screenshot({ path: `${SHOTS}/site-webhook-saved.png`, fullPage: true });

    // Only the URL changed: the other settings are as they were.
    const after = (await h.scenario.ops('GET', `/sites/${site.siteId}`)).body as Record<string, unknown>;
    expect(after.webhookUrl).toBe(`https://localhost:${h.receiver.port}${newPath}`);
    for (const name of ['name', 'rateLimitPerMinute', 'depositTtlSeconds', 'minAmount', 'maxAmount', 'returnUrl'])
      expect(after[name]).toEqual(before[name]);

    await saved.getByRole('button', { name: 'Send a test webhook' }).click();
    await page.waitForURL(`**/sites/${site.siteId}/test-webhook`);
    await expect(page.locator('section.test-webhook-result').innerText()).resolves.toContain('delivered');
    const received = h.receivedOn(newPath);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.rawBody.toString('utf8'))).toMatchObject({ type: 'ping', test: true });
    expect(h.receivedOn(path)).toHaveLength(0);
    await context.close();
  });

  it('refuses a bad URL naming the field, and a reviewer altogether, changing nothing', async () => {
    const { h, page } = file;
    const admin = await h.scenario.createOperator('ADMIN');
    const asAdmin = await h.login(admin);
    const { site, path } = await h.siteAnsweredBy(() => 200);
    const url = `https://localhost:${h.receiver.port}${path}`;

    await asAdmin.page.goto(`/sites/${site.siteId}`);
    await asAdmin.page.getByLabel('Webhook URL').fill(`http://localhost:${h.receiver.port}${path}`);
    await asAdmin.page.getByRole('button', { name: 'Save webhook URL' }).click();
    await expect(asAdmin.page.locator('section.error').innerText()).resolves.toContain('webhookUrl');
    expect((await h.scenario.ops('GET', `/sites/${site.siteId}`)).body).toMatchObject({ webhookUrl: url });
    await asAdmin.context.close();

    // A reviewer sees the URL without the form; a forged post is refused by the ledger.
    await page.goto(`/sites/${site.siteId}`);
    await expect(page.getByRole('button', { name: 'Save webhook URL' }).count()).resolves.toBe(0);
    await expect(page.locator('#webhook').innerText()).resolves.toContain('Changing it needs the admin role');
    const csrf = await page.locator('input[name=_csrf]').first().inputValue();
    const forged = await page.request.post(`/sites/${site.siteId}/webhook-url`, {
      form: { _csrf: csrf, webhookUrl: `${url}-forged` },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    expect((await h.scenario.ops('GET', `/sites/${site.siteId}`)).body).toMatchObject({ webhookUrl: url });
  });
});
