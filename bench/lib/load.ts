/** One measured load run: an autocannon warm-up, then the measured window, with CPU accounting around it. */
import autocannon from 'autocannon';
import { availableParallelism } from 'node:os';
import { diff, snapshot, type CpuTargets, type CpuWindow } from './cpu.js';

export interface LoadSpec {
  name: string;
  url: string;
  requests: autocannon.Request[];
  connections: number;
  warmupSeconds: number;
  /** The warm-up's requests when they must differ from the measured ones (another API key, so that neither run uses up a per-key budget). */
  warmupRequests?: autocannon.Request[];
  durationSeconds: number;
}

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: { p50: number; p90: number; p99: number; mean: number; max: number };
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  cpu: CpuWindow & {
    /** Share of the machine's CPU capacity used by the bench's own processes (load generator, servers, PostgreSQL, Redis). */
    benchShare: number;
  };
  /** CPU milliseconds per request, per component. */
  cpuMsPerRequest: Record<string, number>;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function runLoad(spec: LoadSpec, cpuTargets: CpuTargets): Promise<LoadResult> {
  const base = { url: spec.url, connections: spec.connections, requests: spec.requests, timeout: 10 };
  if (spec.warmupSeconds > 0) await autocannon({ ...base, requests: spec.warmupRequests ?? spec.requests, duration: spec.warmupSeconds });
  const before = snapshot(cpuTargets);
  const result = await autocannon({ ...base, duration: spec.durationSeconds });
  const cpu = diff(before, snapshot(cpuTargets));
  const total = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
  const cpuMsPerRequest: Record<string, number> = {};
  for (const [component, ms] of Object.entries(cpu.ms)) cpuMsPerRequest[component] = total > 0 ? round(ms / total, 3) : 0;
  return {
    name: spec.name,
    requestsPerSecond: round(total / (result.duration > 0 ? result.duration : spec.durationSeconds), 0),
    totalRequests: total,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      mean: round(result.latency.mean),
      max: result.latency.max,
    },
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: result.duration,
    cpu: {
      ...cpu,
      machineBusy: round(cpu.machineBusy, 3),
      benchShare: round(Object.values(cpu.ms).reduce((a, b) => a + b, 0) / (cpu.wallMs * availableParallelism()), 3),
      ms: Object.fromEntries(Object.entries(cpu.ms).map(([k, v]) => [k, round(v, 0)])),
    },
    cpuMsPerRequest,
  };
}

/** A bounded sequence of single requests (one connection), for the unloaded latency of one URL. */
export async function serialLatency(
  url: string,
  headers: Record<string, string>,
  count: number,
  maxMs: number,
): Promise<{ p50: number; min: number; count: number }> {
  const samples: number[] = [];
  const deadline = Date.now() + maxMs;
  for (let i = 0; i < count && Date.now() < deadline; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: round(samples[Math.floor(samples.length / 2)] ?? 0), min: round(samples[0] ?? 0), count: samples.length };
}
