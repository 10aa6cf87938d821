/**
 * For the engine tests: Kasa's services started from source as child processes (`node --import tsx
 * services/<name>/src/main.ts`, configured by environment variables as a container is), with every line they
 * write to stdout and stderr kept and timed; and what a Redis Cluster's nodes hold and do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ClusterNode, PrivateRedisCluster } from '@kasa/testkit';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type ServiceName = 'gateway' | 'ledger' | 'webhook-worker';

/** One line a service wrote, when, and where. */
export interface OutputLine {
  at: number;
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface SourceService {
  name: ServiceName;
  url: string;
  lines: OutputLine[];
  /** Lines written in [from, to). */
  linesBetween(from: number, to: number): OutputLine[];
  /** SIGTERM, then SIGKILL (by pid) if it has not exited within 15 s. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing is finished or released) and resolves once the process has exited. */
  kill(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** SIGKILLs, by pid, every service started here and not yet exited: for afterAll. */
export function killLeftovers(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

/** Starts `services/<name>/src/main.ts` with exactly `env`; resolves once it logs "listening"/"running" with its port. */
export async function startFromSource(name: ServiceName, env: Record<string, string>, timeoutMs = 60_000): Promise<SourceService> {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${name}/src/main.ts`], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = once(child, 'exit').then(() => children.delete(child));
  const lines: OutputLine[] = [];
  let resolvePort: (port: number) => void = () => undefined;
  const listening = new Promise<number>((resolve) => (resolvePort = resolve));
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream]! }).on('line', (text) => {
      lines.push({ at: Date.now(), stream, text });
      if (stream !== 'stdout') return;
      try {
        const entry = JSON.parse(text) as { message?: string; port?: unknown };
        if (/ (listening|running)$/.test(entry.message ?? '') && typeof entry.port === 'number') resolvePort(entry.port);
      } catch {
        // Not a JSON line: kept and counted like any other.
      }
    });
  }
  let timer: NodeJS.Timeout | undefined;
  const port = await Promise.race([
    listening,
    exited.then(() => Promise.reject(new Error(`${name} exited before it listened:\n${lines.map((l) => l.text).join('\n')}`))),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} not listening after ${timeoutMs} ms`)), timeoutMs);
    }),
  ]).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  clearTimeout(timer);
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    lines,
    linesBetween: (from, to) => lines.filter((line) => line.at >= from && line.at < to),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The node that serves the slot of `key` (CLUSTER KEYSLOT and CLUSTER SLOTS, asked of any node). */
export async function ownerOf(cluster: PrivateRedisCluster, key: string): Promise<ClusterNode> {
  const { nodes } = cluster;
  const [first] = nodes;
  if (!first) throw new Error('no nodes');
  const slot = Number(await cluster.call(first, 'CLUSTER', 'KEYSLOT', key));
  const ranges = (await cluster.call(first, 'CLUSTER', 'SLOTS')) as [number, number, [string, number, ...unknown[]]][];
  const range = ranges.find(([from, to]) => slot >= from && slot <= to);
  const owner = range && nodes.find((node) => node.port === range[2][1]);
  if (!owner) throw new Error(`no node serves slot ${slot} of ${key}`);
  return owner;
}

/** How many keys under `prefix:` each node holds (SCAN of that node only), in the order of `nodes`. */
export async function keysPerNode(cluster: PrivateRedisCluster, prefix: string): Promise<string[][]> {
  return Promise.all(
    cluster.nodes.map(async (node) => {
      const found: string[] = [];
      let cursor = '0';
      do {
        const [next, keys] = (await cluster.call(node, 'SCAN', cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000)) as [string, string[]];
        cursor = next;
        found.push(...keys);
      } while (cursor !== '0');
      return found;
    }),
  );
}

/**
 * MOVED replies a node has sent since it started (INFO errorstats). A redirected command is refused before it
 * runs, so it never shows in total_commands_processed: this is what counts a client that retries MOVED.
 */
export async function movedReplies(cluster: PrivateRedisCluster, node: ClusterNode): Promise<number> {
  const info = String(await cluster.call(node, 'INFO', 'errorstats'));
  return Number(/^errorstat_MOVED:count=(\d+)/m.exec(info)?.[1] ?? 0);
}
