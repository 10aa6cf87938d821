import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './private-redis.js';

/** One node of a {@link PrivateRedisCluster}. */
export interface ClusterNode {
  host: string;
  port: number;
}

/** How {@link startPrivateRedisCluster} sets its cluster up; the defaults are three masters alone, Redis's own timeouts. */
export interface PrivateRedisClusterOptions {
  /** A replica for each master (`--cluster-replicas 1`), so a killed master's replica is promoted. */
  replicas?: boolean;
  /** `cluster-node-timeout`: how long a master may be unreachable before it is failed over (Redis's default 15000). */
  nodeTimeoutMs?: number;
  /** `cluster-require-full-coverage` (Redis's default true: while any slot has no master, every slot answers CLUSTERDOWN). */
  requireFullCoverage?: boolean;
}

/** One range of slots and the node serving it, as CLUSTER SLOTS tells it. */
export interface SlotRange {
  from: number;
  to: number;
  master: ClusterNode;
}

export interface PrivateRedisCluster {
  /** The masters as created, each owning a third of the slots (after a failover one of them may be dead or a replica). */
  nodes: ClusterNode[];
  /** The replicas as created (empty without `replicas`), `replicas[i]` replicating `nodes[i]`. */
  replicas: ClusterNode[];
  /** `host:port,host:port,host:port`: the value of REDIS_CLUSTER_NODES. */
  nodesEnv: string;
  /** `redis://host:port` of one node, for a test that points a plain (non-cluster) client at the cluster. */
  nodeUrl(index: number): string;
  /** Runs one command on one node (not through the cluster: a key of another node's slot gets MOVED), within 2 s. */
  call(node: ClusterNode, ...command: [string, ...(string | number)[]]): Promise<unknown>;
  /** SIGKILLs one node (a crash: no failover is started by it) and resolves once its process has exited. */
  kill(node: ClusterNode): Promise<void>;
  /** The slot ranges and their masters as `asked` sees them (CLUSTER SLOTS). */
  slots(asked: ClusterNode): Promise<SlotRange[]>;
  /** Kills every node (SIGKILL: nothing is saved) and removes their directory. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const key = (node: ClusterNode) => `${node.host}:${node.port}`;
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

/** The replica of each master, in the order of `masters`, read from CLUSTER NODES of `asked`. */
async function replicasOf(asked: ClusterNode, masters: ClusterNode[]): Promise<ClusterNode[]> {
  // `<id> <ip:port@cport> <flags> <master id or -> ...`, one line per node.
  const lines = String(await ask(asked.port, 2_000, 'CLUSTER', 'NODES'))
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const address = (fields: string[]) => (fields[1] ?? '').split('@')[0] ?? '';
  return masters.map((master) => {
    const id = lines.find((fields) => address(fields) === key(master))?.[0];
    const replica = lines.find((fields) => id !== undefined && fields[3] === id);
    if (!replica) throw new Error(`redis cluster: no replica of ${key(master)}`);
    const [host, port] = address(replica).split(':');
    return { host: host as string, port: Number(port) };
  });
}

/**
 * A Redis Cluster of the test's own: three masters (and, with `replicas`, a replica of each) on free loopback
 * ports, each with its cluster config file in a fresh temporary directory, joined by `redis-cli --cluster
 * create`; resolves once `CLUSTER INFO` says `cluster_state:ok` on every node (and every replica's link to its
 * master is up). Every wait is bounded; on any failure the nodes started so far are killed and the directory
 * removed.
 */
export async function startPrivateRedisCluster(options: PrivateRedisClusterOptions = {}): Promise<PrivateRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-redis-cluster-'));
  const children: ChildProcess[] = [];
  const byPort = new Map<number, ChildProcess>();
  const all: ClusterNode[] = [];
  let nodes: ClusterNode[] = [];
  let replicas: ClusterNode[] = [];
  const settings = [
    ...(options.nodeTimeoutMs === undefined ? [] : ['--cluster-node-timeout', String(options.nodeTimeoutMs)]),
    ...(options.requireFullCoverage === undefined ? [] : ['--cluster-require-full-coverage', options.requireFullCoverage ? 'yes' : 'no']),
  ];
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
    for (let i = 0; i < (options.replicas ? 6 : 3); i += 1) {
      const port = await freePort();
      // prettier-ignore
      const child = spawn('redis-server', [
        '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`),
        '--port', String(port), '--bind', HOST, '--save', '', '--appendonly', 'no', '--dir', dir, ...settings,
      ], { stdio: 'ignore' });
      children.push(child);
      byPort.set(port, child);
      all.push({ host: HOST, port });
    }
    for (const { port } of all)
      await until(`node ${port} did not answer PING`, START_TIMEOUT_MS, async () => (await ask(port, 500, 'PING')) === 'PONG');
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...all.map(key), '--cluster-replicas', options.replicas ? '1' : '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: CLUSTER_OK_TIMEOUT_MS },
    );
    if (create.status !== 0)
      throw new Error(`redis-cli --cluster create failed (${create.status ?? create.signal}): ${create.stderr}${create.stdout}`);
    const masterPorts = new Set(
      ((await ask(all[0]!.port, 2_000, 'CLUSTER', 'SLOTS')) as [number, number, [string, number]][]).map((range) => range[2][1]),
    );
    nodes = all.filter(({ port }) => masterPorts.has(port));
    for (const { port } of all) {
      await until(`node ${port} never reported cluster_state:ok`, CLUSTER_OK_TIMEOUT_MS, async () =>
        String(await ask(port, 500, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
    }
    if (options.replicas) {
      await until('the replicas never all appeared', CLUSTER_OK_TIMEOUT_MS, async () => {
        replicas = await replicasOf(all[0] as ClusterNode, nodes);
        return true;
      });
      for (const { port } of replicas) {
        await until(`replica ${port} never synced`, CLUSTER_OK_TIMEOUT_MS, async () =>
          String(await ask(port, 500, 'INFO', 'replication')).includes('master_link_status:up'),
        );
      }
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
    replicas,
    call: (node, ...command) => ask(node.port, 2_000, ...command),
    async kill(node) {
      const child = byPort.get(node.port);
      if (!child) throw new Error(`redis cluster: no node ${key(node)}`);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
    async slots(asked) {
      const ranges = (await ask(asked.port, 2_000, 'CLUSTER', 'SLOTS')) as [number, number, [string, number, ...unknown[]]][];
      return ranges.map(([from, to, [host, port]]) => ({ from, to, master: { host, port } }));
    },
    stop,
  };
}
