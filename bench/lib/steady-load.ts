/**
 * Open-loop load at a fixed request rate over a fixed number of keep-alive connections.
 *
 * autocannon is closed-loop: each connection sends its next request when the previous one is answered, so at
 * 50 connections the server is always saturated and the latency it reports is mostly queueing (Little's law:
 * mean latency = connections / throughput). This generator instead schedules requests at evenly spaced
 * instants, `rate` per second, and sends each over an undici Pool of `connections` sockets. Latency is taken
 * from the request's scheduled instant, not from when a socket became free, so a request that waited for a
 * connection (or for this process's event loop) counts that wait: a stall is measured, not omitted.
 */
import { availableParallelism } from 'node:os';
import { Pool } from 'undici';
import { diff, snapshot, type CpuTargets } from './cpu.js';

export interface SteadyRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface SteadySpec {
  name: string;
  origin: string;
  connections: number;
  ratePerSecond: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Builds the next request; called once per scheduled instant. */
  next: () => SteadyRequest;
}

export interface SteadyResult {
  name: string;
  offeredPerSecond: number;
  achievedPerSecond: number;
  sent: number;
  completed: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Machine-wide busy share (0..1) and the bench processes' share during the measured window. */
  cpu: { machineBusy: number; benchShare: number };
  /** CPU milliseconds per answered request, per component, in the measured window. */
  cpuMsPerRequest: Record<string, number>;
}

const REQUEST_TIMEOUT_MS = 10_000;
/** Waiting for the last answers of a window ends here at the latest. */
const DRAIN_TIMEOUT_MS = REQUEST_TIMEOUT_MS + 5_000;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

interface Window {
  latencies: Float64Array;
  completed: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  sent: number;
  elapsedMs: number;
}

async function runWindow(pool: Pool, spec: SteadySpec, seconds: number): Promise<Window> {
  const total = Math.max(1, Math.round(spec.ratePerSecond * seconds));
  const intervalMs = 1000 / spec.ratePerSecond;
  const latencies = new Float64Array(total);
  const scheduled = new Float64Array(total);
  const settled = new Uint8Array(total);
  const window: Window = { latencies, completed: 0, non2xx: 0, errors: 0, statusCodes: {}, sent: 0, elapsedMs: 0 };
  const inflight = new Set<Promise<void>>();
  const fire = (scheduledAt: number) => {
    const request = spec.next();
    const slot = window.sent;
    window.sent += 1;
    scheduled[slot] = scheduledAt;
    const done = pool
      .request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        headersTimeout: REQUEST_TIMEOUT_MS,
        bodyTimeout: REQUEST_TIMEOUT_MS,
      })
      .then(async (response) => {
        // Read to the end without keeping the bytes: the answer is complete when its last byte arrived.
        await new Promise<void>((resolve, reject) => {
          response.body.on('end', resolve).on('error', reject).resume();
        });
        latencies[slot] = performance.now() - scheduledAt;
        settled[slot] = 1;
        window.completed += 1;
        const code = String(response.statusCode);
        window.statusCodes[code] = (window.statusCodes[code] ?? 0) + 1;
        if (response.statusCode < 200 || response.statusCode > 299) window.non2xx += 1;
      })
      .catch(() => {
        latencies[slot] = performance.now() - scheduledAt;
        settled[slot] = 1;
        window.errors += 1;
      })
      .finally(() => inflight.delete(done));
    inflight.add(done);
  };
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      // Every instant that has come due is sent now, stamped with its own scheduled time.
      while (window.sent < total && started + window.sent * intervalMs <= now) fire(started + window.sent * intervalMs);
      if (window.sent >= total) return resolve();
      setTimeout(tick, Math.max(0, started + window.sent * intervalMs - performance.now()));
    };
    tick();
  });
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...inflight]),
    new Promise<void>((resolve) => {
      drainTimer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(drainTimer);
  const end = performance.now();
  window.elapsedMs = end - started;
  // A request still unanswered at the drain deadline is an error whose latency is its wait so far.
  for (let slot = 0; slot < window.sent; slot += 1) {
    if (settled[slot]) continue;
    latencies[slot] = end - (scheduled[slot] as number);
    window.errors += 1;
  }
  return window;
}

export async function runSteady(spec: SteadySpec, cpuTargets: CpuTargets = { children: {}, databaseName: '' }): Promise<SteadyResult> {
  if (!(spec.ratePerSecond > 0)) throw new Error(`${spec.name}: rate must be positive`);
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    if (spec.warmupSeconds > 0) await runWindow(pool, spec, spec.warmupSeconds);
    const before = snapshot(cpuTargets);
    const window = await runWindow(pool, spec, spec.durationSeconds);
    const cpu = diff(before, snapshot(cpuTargets));
    const cpuTotal = Object.values(cpu.ms).reduce((a, b) => a + b, 0);
    const answered = window.latencies.slice(0, window.sent).sort();
    let sum = 0;
    for (const value of answered) sum += value;
    return {
      name: spec.name,
      offeredPerSecond: round(spec.ratePerSecond, 0),
      achievedPerSecond: round(window.completed / (window.elapsedMs / 1000), 0),
      sent: window.sent,
      completed: window.completed,
      latencyMs: {
        p50: round(percentile(answered, 50)),
        p90: round(percentile(answered, 90)),
        p99: round(percentile(answered, 99)),
        max: round(answered[answered.length - 1] ?? 0),
        mean: round(answered.length > 0 ? sum / answered.length : 0),
      },
      non2xx: window.non2xx,
      errors: window.errors,
      statusCodes: window.statusCodes,
      cpu: { machineBusy: round(cpu.machineBusy, 3), benchShare: round(cpuTotal / (cpu.wallMs * availableParallelism()), 3) },
      cpuMsPerRequest: Object.fromEntries(
        Object.entries(cpu.ms).map(([component, ms]) => [component, window.completed > 0 ? round(ms / window.completed, 3) : 0]),
      ),
    };
  } finally {
    await pool.close().catch(() => pool.destroy());
  }
}
