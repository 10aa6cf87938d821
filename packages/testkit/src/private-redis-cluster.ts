import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './private-redis.js';

/** One master of a {@link PrivateRedisCluster}. */
export interface ClusterNode {
  host: string;
  port: number;
}

export interface PrivateRedisCluster {
  /** The masters, each owning a third of the slots. */
  nodes: ClusterNode[];
  /** `host:port,host:port,host:port`: the value of REDIS_CLUSTER_NODES. */
  nodesEnv: string;
  /** `redis://host:port` of one node, for a test that points a plain (non-cluster) client at the cluster. */
  nodeUrl(index: number): string;
  /** Runs one command on one node (not through the cluster: a key of another node's slot gets MOVED), within 2 s. */
  call(node: ClusterNode, ...command: [string, ...(string | number)[]]): Promise<unknown>;
  /** Kills every node (SIGKILL: nothing is saved) and removes their directory. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 15_000;
const CLUSTER_OK_TIMEOUT_MS = 20_000;

/** Runs a command for at most `timeoutMs` against one node; resolves its reply, or throws. */
async function ask(port: number, timeoutMs: number, ...command: [string, ...(string | number)[]]): Promise<unknown> {
  const probe = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    commandTimeout: timeoutMs,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return await probe.call(...command);
  } finally {
    probe.disconnect();
  }
}

/** Polls `check` every 50 ms until it holds or `timeoutMs` passes (then throws naming `what`). */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A Redis Cluster of the test's own: three masters (no replicas) on free loopback ports, each with its
 * cluster config file in a fresh temporary directory, joined by `redis-cli --cluster create`; resolves once
 * `CLUSTER INFO` says `cluster_state:ok` on every node. Every wait is bounded; on any failure the nodes
 * started so far are killed and the directory removed.
 */
export async function startPrivateRedisCluster(): Promise<PrivateRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: ClusterNode[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i += 1) {
      const port = await freePort();
      // prettier-ignore
      const child = spawn('redis-server', [
        '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`),
        '--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir,
      ], { stdio: 'ignore' });
      children.push(child);
      nodes.push({ host: HOST, port });
    }
    for (const { port } of nodes)
      await until(`node ${port} did not answer PING`, START_TIMEOUT_MS, async () => (await ask(port, 500, 'PING')) === 'PONG');
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map(({ host, port }) => `${host}:${port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: CLUSTER_OK_TIMEOUT_MS },
    );
    if (create.status !== 0)
      throw new Error(`redis-cli --cluster create failed (${create.status ?? create.signal}): ${create.stderr}${create.stdout}`);
    for (const { port } of nodes) {
      await until(`node ${port} never reported cluster_state:ok`, CLUSTER_OK_TIMEOUT_MS, async () =>
        String(await ask(port, 500, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes,
    nodesEnv: nodes.map(({ host, port }) => `${host}:${port}`).join(','),
    nodeUrl: (index) => {
      const node = nodes[index];
      if (!node) throw new Error(`redis cluster: no node ${index}`);
      return `redis://${node.host}:${node.port}`;
    },
    call: (node, ...command) => ask(node.port, 2_000, ...command),
    stop,
  };
}
