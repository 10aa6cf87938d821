/**
 * A real PostgreSQL failover under partner traffic: the ledger, gateway and webhook worker on a primary and its
 * synchronous standby (DATABASE_URL lists both, `target_session_attrs=read-write`). The primary is killed -9 while
 * creates (with Idempotency-Key) and approvals run, the standby is promoted a second later, and traffic goes on.
 * Every acknowledged create and approval is then on the promoted server, every approval's `intent.approved` webhook
 * is delivered, and the 5xx window is measured (printed for docs/scaling.md, Failover).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  httpJson,
  killPostgres,
  Scenario,
  startPrivatePostgres,
  startSynchronousStandby,
  type PrivatePostgres,
  type SynchronousStandby,
} from '@kasa/testkit';
import { configureWebhook, startStack, waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import type { TestSite } from '../../services/gateway/test/harness.js';
import { failureWindow, runTraffic } from './pg-failover-traffic.js';

/** Traffic before the kill, the time a failover takes to be decided (CloudNativePG's is seconds), and after. */
const BEFORE_KILL_MS = 3_000;
const DETECTION_MS = 1_000;
const AFTER_PROMOTION_MS = 4_000;
const LANES = 6;

let primary: PrivatePostgres;
let standby: SynchronousStandby;
let stack: Stack;
let site: TestSite;
let scenario: Scenario;

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startSynchronousStandby(primary);
  stack = await startStack({ DATABASE_URL: standby.failoverUrl('kasa_failover') });
  site = await stack.h.createSite({ rateLimitPerMinute: 100_000 });
  await configureWebhook(stack.h, site, stack.receiver.url);
  scenario = new Scenario({
    ledgerUrl: stack.h.ledger.url,
    opsToken: stack.h.env.config.opsBootstrapToken,
    internalToken: stack.h.env.config.internalToken,
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await standby?.destroy();
  await primary?.destroy();
}, 60_000);

const partnerGet = (path: string) =>
  httpJson(`${stack.h.gateway.url}/api/v1/external${path}`, 'GET', { authorization: `Bearer ${site.apiKey}` });

describe('PostgreSQL failover to a synchronous standby', () => {
  it('loses no acknowledged create, approval or event when the primary is killed -9 and the standby promoted', async () => {
    const started = Date.now();
    let stopAt = Number.POSITIVE_INFINITY;
    const running = runTraffic({
      gatewayUrl: stack.h.gateway.url,
      apiKey: site.apiKey,
      scenario,
      lanes: LANES,
      approve: true,
      done: () => Date.now() >= stopAt,
    });
    await new Promise((resolve) => setTimeout(resolve, BEFORE_KILL_MS));
    const killedAt = Date.now();
    await killPostgres(primary);
    await new Promise((resolve) => setTimeout(resolve, DETECTION_MS));
    const promoteAt = Date.now();
    await standby.promote();
    const promotedAt = Date.now();
    stopAt = promotedAt + AFTER_PROMOTION_MS;
    const traffic = await running;

    // Every acknowledged create is there, under its own id, and its key replays it.
    const lookups = await Promise.all(traffic.creates.map((created) => partnerGet(`/intents/${created.intentId}`)));
    const missing = traffic.creates.filter((_, index) => lookups[index]?.status !== 200);
    expect(missing).toEqual([]);
    expect(lookups.every((lookup, index) => lookup.body.intentId === traffic.creates[index]?.intentId)).toBe(true);
    const db = stack.h.ledger.deps.db;
    expect(await db.deposit.count({ where: { siteId: site.siteId } })).toBe(traffic.creates.length);
    // Every acknowledged approval is APPROVED, and its intent.approved webhook reaches the partner.
    const approvedIds = new Set(traffic.approvals.map((approval) => approval.intentId));
    for (const intentId of approvedIds)
      expect(lookups[traffic.creates.findIndex((c) => c.intentId === intentId)]?.body.status).toBe('APPROVED');
    const approvedEvents = await waitFor(
      `${approvedIds.size} intent.approved webhooks`,
      () => {
        const delivered = new Set<string>();
        for (const delivery of stack.receiver.deliveries) {
          const event = JSON.parse(delivery.rawBody.toString('utf8')) as { type?: string; data?: { intentId?: string } };
          if (event.type === 'intent.approved' && event.data?.intentId) delivered.add(event.data.intentId);
        }
        return [...approvedIds].every((id) => delivered.has(id)) ? delivered : null;
      },
      30_000,
      200,
    );
    expect([...approvedIds].filter((id) => !approvedEvents.has(id))).toEqual([]);

    const window = failureWindow(traffic.answers);
    const afterPromotion = traffic.answers.filter((answer) => answer.at > promotedAt && answer.status >= 200 && answer.status < 300);
    const firstSuccessAfterPromotion = Math.min(...afterPromotion.map((answer) => answer.at));
    // For the record (docs/scaling.md, Failover).
    console.log(
      [
        `sync failover: ${traffic.answers.length} answers in ${Date.now() - started} ms; acknowledged ${traffic.creates.length} creates, ${traffic.approvals.length} approvals, ${approvedIds.size} intent.approved webhooks delivered; lost 0`,
        `5xx or no answer: ${window.failures}, from +${(window.firstAt ?? killedAt) - killedAt} ms to +${(window.lastAt ?? killedAt) - killedAt} ms after the kill (promotion asked at +${promoteAt - killedAt} ms, done at +${promotedAt - killedAt} ms); first 2xx after the promotion at +${firstSuccessAfterPromotion - killedAt} ms`,
      ].join('\n'),
    );
    // The kill mattered (the rig would prove nothing otherwise), the services came back on the promoted server, and
    // the failures stopped within seconds of its promotion.
    expect(traffic.creates.filter((created) => created.at < killedAt).length).toBeGreaterThan(0);
    expect(window.failures).toBeGreaterThan(0);
    expect(afterPromotion.length).toBeGreaterThan(10);
    expect((window.lastAt ?? 0) - promotedAt).toBeLessThan(5_000);
  }, 90_000);
});
