/**
 * What a failover to an ASYNCHRONOUS replica loses, and what partners then see. The replica applies each commit two
 * seconds late (recovery_min_apply_delay) and is then cut off from the primary for a few seconds (it receives
 * nothing more, as on a lost link) before the primary is killed -9 and the replica promoted. Commits it had
 * received are all kept, applied or not: apply lag costs nothing at promotion. Commits it never received are lost:
 * those creates' lookups answer 404, and a partner retrying one with the same Idempotency-Key and body gets 409
 * `idempotency_record_lost`, never a second intent (IDEMPOTENCY_LOST_RECORD_GUARD, on here as such a deployment sets
 * it). Figures printed for docs/scaling.md, Failover.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import {
  httpJson,
  killPostgres,
  Scenario,
  startPrivatePostgres,
  startStreamingReplica,
  type PrivatePostgres,
  type StreamingReplica,
} from '@kasa/testkit';
import { configureWebhook, startStack, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import type { TestSite } from '../../services/gateway/test/harness.js';
import { runTraffic, type AcknowledgedCreate } from './pg-failover-traffic.js';

const DATABASE = 'kasa_failover_async';
const APPLY_DELAY_MS = 2_000;
const BEFORE_CUT_MS = 3_000;
/** How long the replica receives nothing before the primary dies: the loss window. */
const CUT_OFF_MS = 2_500;
const AFTER_PROMOTION_MS = 2_000;

let primary: PrivatePostgres;
let replica: StreamingReplica;
let stack: Stack;
let site: TestSite;
let scenario: Scenario;

beforeAll(async () => {
  primary = await startPrivatePostgres();
  replica = await startStreamingReplica(primary, { applyDelayMs: APPLY_DELAY_MS });
  const hosts = [primary.port, replica.port].map((port) => `127.0.0.1:${port}`).join(',');
  // A write database with asynchronous replicas: the deployment turns on the gateway's memory of answered keys.
  stack = await startStack({
    DATABASE_URL: `postgresql://postgres@${hosts}/${DATABASE}?target_session_attrs=read-write`,
    IDEMPOTENCY_LOST_RECORD_GUARD: 'true',
  });
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
  await replica?.destroy();
  await primary?.destroy();
}, 60_000);

const partner = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
  httpJson(`${stack.h.gateway.url}/api/v1/external${path}`, method, { authorization: `Bearer ${site.apiKey}`, ...headers }, body);

/** How many of this site's deposits the replica shows (has applied) now. */
async function appliedOnReplica(): Promise<number> {
  const client = new pg.Client({ connectionString: `${replica.baseUrl}/${DATABASE}` });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM deposit_intents WHERE site_id = $1', [site.siteId]);
    return rows[0]?.n ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('PostgreSQL failover to an asynchronous replica', () => {
  it('keeps what the replica received, loses what it did not, and refuses to create a lost record again', async () => {
    let stopAt = Number.POSITIVE_INFINITY;
    const running = runTraffic({
      gatewayUrl: stack.h.gateway.url,
      apiKey: site.apiKey,
      scenario,
      lanes: 4,
      approve: true,
      done: () => Date.now() >= stopAt,
    });
    await new Promise((resolve) => setTimeout(resolve, BEFORE_CUT_MS));
    const applied = await appliedOnReplica();
    const cutAt = Date.now();
    await replica.stop();
    await new Promise((resolve) => setTimeout(resolve, CUT_OFF_MS));
    const killedAt = Date.now();
    await killPostgres(primary);
    // The replica comes back with only its own WAL (the primary is gone) and is promoted.
    await replica.start();
    await replica.promote();
    const promotedAt = Date.now();
    stopAt = promotedAt + AFTER_PROMOTION_MS;
    const traffic = await running;

    const lookups = await Promise.all(traffic.creates.map((created) => partner('GET', `/intents/${created.intentId}`)));
    const lost = traffic.creates.filter((_, index) => lookups[index]?.status === 404);
    const kept = traffic.creates.filter((_, index) => lookups[index]?.status === 200);
    const beforeCut = traffic.creates.filter((created) => created.at < cutAt);
    expect(kept.length + lost.length).toBe(traffic.creates.length);
    // Received before the cut, applied or not: all kept (the apply delay had left some unapplied).
    expect(beforeCut.filter((created) => lost.includes(created))).toEqual([]);
    // What the replica never received is lost: acknowledged after the cut, and committed before the kill. `at` is when
    // the answer reached the test, which on a loaded machine can be seconds after the commit: the bound is the promotion
    // (every create answered after it was committed by the promoted server, and is kept).
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.filter((created) => created.at < cutAt || created.at > promotedAt).map((created) => created.at - killedAt)).toEqual([]);

    // A partner retrying a lost create with the same key and body: 409 idempotency_record_lost, nothing created.
    const retry = (created: AcknowledgedCreate) => partner('POST', '/deposits', { 'idempotency-key': created.key }, created.body);
    const retries = await Promise.all(lost.map(retry));
    expect(retries.map((answer) => [answer.status, answer.body?.reason])).toEqual(lost.map(() => [409, 'idempotency_record_lost']));
    const db = stack.h.ledger.deps.db;
    expect(await db.deposit.count({ where: { siteId: site.siteId, idempotencyKey: { in: lost.map((created) => created.key) } } })).toBe(0);
    // A kept create still replays its own intent.
    const replay = await retry(kept[0]!);
    expect([replay.status, replay.body.intentId]).toEqual([201, kept[0]!.intentId]);

    const lostIds = new Set(lost.map((created) => created.intentId));
    const lostApprovals = traffic.approvals.filter((approval) => lostIds.has(approval.intentId)).length;
    const webhooksForLost = new Set(
      stack.receiver.deliveries
        .map((delivery) => JSON.parse(delivery.rawBody.toString('utf8')) as { type?: string; data?: { intentId?: string } })
        .filter((event) => event.type === 'intent.approved' && lostIds.has(event.data?.intentId ?? ''))
        .map((event) => event.data?.intentId),
    ).size;
    console.log(
      [
        `async failover: replica ${APPLY_DELAY_MS} ms apply delay, cut off ${killedAt - cutAt} ms before the kill; promoted ${promotedAt - killedAt} ms after it`,
        `at the cut the replica had applied ${applied} of ${beforeCut.length} creates acknowledged so far; after promotion all ${beforeCut.length} are there`,
        `acknowledged ${traffic.creates.length} creates and ${traffic.approvals.length} approvals; lost ${lost.length} creates (lookups 404) and ${lostApprovals} approvals; ${webhooksForLost} intent.approved webhooks had been delivered for lost deposits`,
        `retried with the same key and body: ${retries.filter((answer) => answer.status === 409).length} of ${lost.length} answered 409 idempotency_record_lost, 0 new intents`,
      ].join('\n'),
    );
  }, 90_000);
});
