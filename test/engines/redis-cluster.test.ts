/**
 * Kasa on a real Redis Cluster of three masters (redis-server --cluster-enabled, started by the test):
 * 1. with REDIS_CLUSTER_NODES, the gateway, the ledger and the webhook worker serve the whole partner flow,
 *    a site's settings change, an operator's login and review, and a signed webhook over TLS, with no 5xx
 *    anywhere, and their keys really are spread over more than one master;
 * 2. with a plain REDIS_URL pointed at one node (the misconfiguration), readiness fails with `misconfigured`,
 *    and neither the logs nor the Redis commands of the failing loops run away.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ensureDatabase, migrate } from '@kasa/db';
import { queuePrefix } from '../../packages/queue/src/index.js';
import { authChangesChannel } from '@kasa/contracts';
import { isClusterClient, publishToSubscribers, subscribeChannel } from '../../packages/redis/src/index.js';
import {
  productionEnvironment,
  Scenario,
  startPrivateRedisCluster,
  type ClusterNode,
  type PrivateRedisCluster,
  type ProductionEnvironment,
} from '@kasa/testkit';
import { verifyWebhook } from '../../packages/webhook-signing/src/index.js';
import type { TestSite } from '../../services/gateway/test/harness.js';
import { configureWebhook, startStack, waitFor, type Stack } from '../../services/webhook-worker/test/support/stack.js';
import { keysPerNode, killLeftovers, movedReplies, ownerOf, startFromSource, type SourceService } from './cluster-support.js';

let cluster: PrivateRedisCluster;
beforeAll(async () => {
  cluster = await startPrivateRedisCluster();
}, 60_000);
afterAll(async () => {
  killLeftovers();
  await cluster?.stop();
});

/** Every status code a labelled `http_request_duration_seconds_count` sample of `metricsText` reports. */
function answeredStatuses(metricsText: string): string[] {
  return [...metricsText.matchAll(/^http_request_duration_seconds_count\{[^}]*status="(\d{3})"[^}]*\} [1-9]/gm)].map((m) => m[1] as string);
}

describe('on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  let stack: Stack;
  let site: TestSite;
  let secret: string;
  const statuses: number[] = [];
  /** A partner call through the gateway; every status is kept for the no-5xx check. */
  const partner = async (method: 'get' | 'post', path: string, body?: object, key?: string) => {
    let call = request(stack.h.gateway.url)[method](`/api/v1/external${path}`).set('authorization', `Bearer ${site.apiKey}`);
    if (key) call = call.set('idempotency-key', key);
    const response = body ? await call.send(body) : await call;
    statuses.push(response.status);
    return response;
  };

  beforeAll(async () => {
    stack = await startStack({ REDIS_CLUSTER_NODES: cluster.nodesEnv });
    site = await stack.h.createSite({ rateLimitPerMinute: 1000 });
    secret = (await configureWebhook(stack.h, site, stack.receiver.url)).webhookSecret as string;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('uses a cluster client for commands and for the queues', () => {
    const clients = [
      stack.h.gateway.deps.redis,
      stack.h.ledger.deps.redis,
      stack.h.ledger.deps.queueConnection,
      stack.worker!.deps.queueConnection,
    ];
    expect(clients.map(isClusterClient)).toEqual([true, true, true, true]);
  });

  it('serves creates with idempotent replays, lookups, lists and rate-limit headers', async () => {
    const depositKey = randomUUID();
    const deposit = await partner('post', '/deposits', { externalUserId: 'cluster-user', amount: '150000' }, depositKey);
    expect(deposit.status).toBe(201);
    expect(deposit.headers['ratelimit-policy']).toBe('"default";q=1000;w=60');
    expect(deposit.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
    const replay = await partner('post', '/deposits', { externalUserId: 'cluster-user', amount: '150000' }, depositKey);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(deposit.body);
    expect((await partner('post', '/deposits', { externalUserId: 'cluster-user', amount: '170000' }, depositKey)).status).toBe(422);

    const withdrawalKey = randomUUID();
    const withdrawalBody = {
      externalUserId: 'cluster-user',
      amount: '50000',
      targetIban: 'TR330006100519786457841326',
      targetHolderName: 'Ayşe Yılmaz',
    };
    const withdrawal = await partner('post', '/withdrawals', withdrawalBody, withdrawalKey);
    expect(withdrawal.status).toBe(201);
    expect((await partner('post', '/withdrawals', withdrawalBody, withdrawalKey)).body).toEqual(withdrawal.body);

    const intent = await partner('get', `/intents/${deposit.body.intentId}`);
    expect(intent.status).toBe(200);
    expect(intent.body).toMatchObject({ intentId: deposit.body.intentId, status: 'RESERVED', amount: '150000' });
    const payout = await partner('get', `/withdrawals/${withdrawal.body.withdrawalId}`);
    expect(payout.body).toMatchObject({ withdrawalId: withdrawal.body.withdrawalId, status: 'PENDING_REVIEW' });
    const intents = await partner('get', '/intents?limit=10');
    expect(intents.status).toBe(200);
    expect(JSON.stringify(intents.body)).toContain(deposit.body.intentId);
    const withdrawals = await partner('get', '/withdrawals?limit=10');
    expect(JSON.stringify(withdrawals.body)).toContain(withdrawal.body.withdrawalId);
  });

  it('logs an operator in, records the transfer, approves the intent and delivers the signed webhook over TLS', async () => {
    const scenario = new Scenario({
      ledgerUrl: stack.h.ledger.url,
      opsToken: stack.h.env.config.opsBootstrapToken,
      internalToken: stack.h.env.config.internalToken,
    });
    const deposit = await partner('post', '/deposits', { externalUserId: 'cluster-payer', amount: '250000' }, randomUUID());
    expect(deposit.status).toBe(201);
    const reviewer = await scenario.createOperator('REVIEWER');
    const token = await scenario.login(reviewer);
    const transfer = await scenario.transfer(deposit.body.referenceNo, '250000');
    expect(transfer.status).toBe(201);
    const approved = await scenario.ops('POST', `/intents/${deposit.body.intentId}/approve`, {}, token);
    expect(approved.status).toBe(200);

    const delivery = await waitFor(
      'the intent.approved webhook',
      () =>
        stack.receiver.deliveries.find((d) => {
          const body = JSON.parse(d.rawBody.toString('utf8')) as { type?: string; data?: { intentId?: string } };
          return body.type === 'intent.approved' && body.data?.intentId === deposit.body.intentId;
        }),
      30_000,
      100,
    );
    expect(() =>
      verifyWebhook({ header: delivery.signature, eventId: delivery.eventId, rawBody: delivery.rawBody, secrets: secret }),
    ).not.toThrow();
    expect((await partner('get', `/intents/${deposit.body.intentId}`)).body.status).toBe('APPROVED');
  });

  it('applies a rate limit changed by PATCH /ops/v1/sites/:id from the next request, up to a 429', async () => {
    const changed = await stack.h.ops('PATCH', `/ops/v1/sites/${site.siteId}`, { rateLimitPerMinute: 2 });
    expect(changed.status).toBe(200);
    const next = await partner('get', '/intents?limit=1');
    expect(next.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
    expect(next.status).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('sends each auth change to every node itself, so no gateway hears of it only over the cluster bus after the ledger answered', async () => {
    const channel = authChangesChannel(`${stack.h.env.redisPrefix}probe:`);
    const heard = cluster.nodes.map(() => 0);
    const confirmed = cluster.nodes.map(() => false);
    // The gateway's own subscriber, one on each node.
    const subscriptions = cluster.nodes.map((_, index) =>
      subscribeChannel({ redisUrl: cluster.nodeUrl(index), redisClusterNodes: null }, channel, {
        message: () => (heard[index] = (heard[index] ?? 0) + 1),
        subscribed: () => (confirmed[index] = true),
        lost: () => undefined,
        error: () => undefined,
      }),
    );
    try {
      await waitFor('a subscriber on every node', async () => confirmed.every(Boolean), 5_000, 20);
      const taken = await publishToSubscribers(stack.h.ledger.deps.redis, channel, 'key-hash');
      expect(taken).toBe(cluster.nodes.length);
      // One copy from its own node and one over the bus from each other node: a plain PUBLISH reaches each once.
      await waitFor('every subscriber heard every node', async () => heard.every((count) => count === taken), 5_000, 20);
    } finally {
      for (const subscription of subscriptions) await subscription.close();
    }
  });

  it('answered no 5xx anywhere, and hashed its own keys to slots of their own, not one hash tag', async () => {
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    for (const service of [stack.h.gateway, stack.h.ledger]) {
      const metrics = await request(service.url).get('/metrics');
      expect(answeredStatuses(metrics.text).filter((status) => status.startsWith('5'))).toEqual([]);
    }
    const gatewayReady = await request(stack.h.gateway.url).get('/readyz');
    expect(gatewayReady.status).toBe(200);
    expect(gatewayReady.body).toEqual({ status: 'ready', checks: { redis: 'ok', ledger: 'ok' } });
    expect((await request(stack.worker!.url).get('/readyz')).body.checks.redis).toBe('ok');

    const perNode = await keysPerNode(cluster, stack.h.env.redisPrefix);
    console.log(
      `redis cluster: ${statuses.length} partner requests, ${statuses.filter((status) => status >= 500).length} answered 5xx; keys per master:`,
      perNode.map((keys) => keys.length),
    );
    // Kasa's own keys (auth cache, rate limits, login throttle) share no hash tag: each hashes to its own slot, so the
    // cluster spreads them over its masters. (Which masters a handful of keys land on is chance: only the slots are
    // checked.)
    const own = perNode.flat().filter((key) => !key.includes('{bull}'));
    expect(own.length).toBeGreaterThan(2);
    const [first] = cluster.nodes;
    const slots = new Set(await Promise.all(own.map((key) => cluster.call(first as NonNullable<typeof first>, 'CLUSTER', 'KEYSLOT', key))));
    expect(slots.size).toBeGreaterThan(own.length / 2);
    // Every BullMQ key shares the {bull} hash tag, so all of them are on the one master of its slot.
    const bullNode = await ownerOf(cluster, queuePrefix(stack.h.env.redisPrefix));
    const withBull = perNode.map((keys, index) => ({ node: cluster.nodes[index], bull: keys.filter((key) => key.includes('{bull}')) }));
    expect(withBull.filter(({ bull }) => bull.length > 0).map(({ node }) => node)).toEqual([bullNode]);
  });
});

describe('a plain REDIS_URL pointed at one cluster node (misconfiguration)', () => {
  const OBSERVE_MS = 8_000;
  let env: ProductionEnvironment;
  let node: ClusterNode;
  let services: SourceService[] = [];

  beforeAll(async () => {
    env = productionEnvironment({}, 'kasa_cl');
    // The node that serves neither the readiness key nor the queues' {bull} slot: every keyed command gets MOVED.
    const taken = [await ownerOf(cluster, `${env.redisPrefix}:readyz`), await ownerOf(cluster, queuePrefix(env.redisPrefix))];
    const index = cluster.nodes.findIndex((candidate) => !taken.includes(candidate));
    node = cluster.nodes[index] as ClusterNode;
    Object.assign(env.env, {
      REDIS_URL: cluster.nodeUrl(index),
      LOG_LEVEL: 'info',
      OUTBOX_RELAY_INTERVAL_MS: '500',
      EXPIRY_SWEEP_INTERVAL_MS: '500',
    });
    await ensureDatabase(env.databaseUrl);
    await migrate(env.databaseUrl);
    const ledger = await startFromSource('ledger', env.env);
    services.push(ledger);
    services.push(await startFromSource('gateway', { ...env.env, LEDGER_URL: ledger.url }));
    services.push(await startFromSource('webhook-worker', env.env));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    services = [];
    await env?.cleanup();
  }, 60_000);

  it('fails readiness as misconfigured, and neither logs nor Redis commands run away', async () => {
    const [ledger, gateway, worker] = services as [SourceService, SourceService, SourceService];
    // The failing loops have started (the worker's fetch, the expiry worker, the relay); then they are watched.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const from = Date.now();
    const movedBefore = await movedReplies(cluster, node);
    const ready = await request(gateway.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'not_ready', checks: { redis: 'misconfigured' } });
    expect((await request(ledger.url).get('/readyz')).body.checks.redis).toBe('misconfigured');
    const workerReady = await request(worker.url).get('/readyz');
    expect(workerReady.status).toBe(503);
    expect(workerReady.body.checks.redis).toBe('misconfigured');
    await new Promise((resolve) => setTimeout(resolve, OBSERVE_MS));
    const to = Date.now();
    const moved = (await movedReplies(cluster, node)) - movedBefore;

    const seconds = (to - from) / 1000;
    const linesPerSecond = Object.fromEntries(services.map((s) => [s.name, s.linesBetween(from, to).length / seconds]));
    // A few lines a second at most (the first of each error, held-back repeats every 5 s, pauses).
    expect(Object.entries(linesPerSecond).filter(([, rate]) => rate > 3)).toEqual([]);
    // A worker loop retrying MOVED at once sends thousands of commands a second to the node; backed off, a few.
    expect(moved / seconds).toBeLessThan(20);
    // Nothing raw reached stderr (ioredis and BullMQ print there when an error has no listener).
    expect(services.flatMap((s) => s.lines.filter((line) => line.stream === 'stderr').map((line) => `${s.name}: ${line.text}`))).toEqual(
      [],
    );
  }, 60_000);
});
