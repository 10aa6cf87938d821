import { describe, expect, it } from '@jest/globals';
import { Cluster, Redis } from 'ioredis';
import { createRedisClient, isClusterClient } from '../src/index.js';

describe('createRedisClient', () => {
  it('makes one Redis from REDIS_URL when no cluster nodes are configured', () => {
    const client = createRedisClient({ redisUrl: 'redis://:secret@redis.internal:6380', redisClusterNodes: null }, { lazyConnect: true });
    expect(client).toBeInstanceOf(Redis);
    expect(isClusterClient(client)).toBe(false);
    expect(client.options).toMatchObject({ host: 'redis.internal', port: 6380, password: 'secret' });
    client.disconnect();
  });

  it("makes a cluster client over the seed nodes, each node given REDIS_URL's credentials and TLS, its host ignored", () => {
    const client = createRedisClient(
      { redisUrl: 'rediss://kasa:p%40ss@ignored.example:6379', redisClusterNodes: [{ host: 'redis-0.internal', port: 7000 }] },
      { maxRetriesPerRequest: 0, commandTimeout: 1_000, enableOfflineQueue: true },
      { lazyConnect: true },
    );
    expect(client).toBeInstanceOf(Cluster);
    expect(isClusterClient(client)).toBe(true);
    const cluster = client as Cluster;
    // ioredis keeps the seed nodes private; reading them is the point here.
    expect((cluster as unknown as { startupNodes: unknown }).startupNodes).toEqual([{ host: 'redis-0.internal', port: 7000 }]);
    expect(cluster.options.redisOptions).toEqual({
      username: 'kasa',
      password: 'p@ss',
      tls: {},
      maxRetriesPerRequest: 0,
      commandTimeout: 1_000,
    });
    expect(cluster.options.enableOfflineQueue).toBe(true);
    // Under TLS the nodes are reached by the names their certificates carry, not by resolved addresses.
    const resolved: string[] = [];
    cluster.options.dnsLookup?.('redis-0.internal', (_error, address) => resolved.push(address));
    expect(resolved).toEqual(['redis-0.internal']);
    client.disconnect();
  });

  it('sends no credentials a plain REDIS_URL does not carry', () => {
    const client = createRedisClient(
      { redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: [{ host: '127.0.0.1', port: 7000 }] },
      {},
      { lazyConnect: true },
    );
    expect((client as Cluster).options.redisOptions).toEqual({});
    client.disconnect();
  });
});

describe('the patched ioredis (patches/ioredis@6.0.0.patch)', () => {
  it('gives pipelines one `length` getter on the prototype, not one of their own each', () => {
    // An accessor defined on each pipeline gave every auto-pipelined batch a hidden class of its own, which kept the
    // batch and the requests waiting on it alive through young-generation collections (docs/benchmarks.md).
    const client = createRedisClient({ redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: null }, { lazyConnect: true });
    const pipeline = client.pipeline().get('a').get('b');
    expect(Object.getOwnPropertyDescriptor(pipeline, 'length')).toBeUndefined();
    expect(pipeline.length).toBe(2);
    client.disconnect();
  });
});
