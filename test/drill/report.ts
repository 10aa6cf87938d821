/**
 * The drill's figures per fault: acknowledged writes and how many were lost, duplicates beyond at-least-once,
 * the failure window (first to last failed request, a 5xx or no answer, sent from the fault until the next
 * one, counted from the fault at the earliest) and the time to recover (from the fault to the first success after the last failure), against the
 * targets; and the markdown table docs/scaling.md carries.
 */
import type { Attempt, Traffic } from './traffic.js';
import type { Verification } from './verify.js';

export type Fault = 'gateway' | 'ledger' | 'webhook-worker' | 'postgres' | 'redis';

export const FAULT_LABEL: Record<Fault, string> = {
  gateway: 'gateway killed -9, restarted',
  ledger: 'ledger killed -9, restarted',
  'webhook-worker': 'webhook worker killed -9, restarted',
  postgres: 'PostgreSQL primary killed -9, synchronous standby promoted',
  redis: 'Redis Cluster master killed -9, its replica promoted',
};

/** The failure window each fault may open (ms); null: no target beyond "nothing lost, no duplicate". */
export const WINDOW_TARGET_MS: Record<Fault, number | null> = {
  gateway: null,
  ledger: null,
  'webhook-worker': null,
  postgres: 30_000,
  redis: 10_000,
};

export interface PhaseWindow {
  fault: Fault;
  at: number;
  until: number;
  /** What the fault itself took: restart, promotion, failover (ms). */
  actionMs: number;
  note: string;
}

export interface FaultRow {
  fault: Fault;
  requests: number;
  acknowledged: number;
  lost: number;
  duplicates: number;
  /** Events recorded in this phase and never delivered. */
  eventsUndelivered: number;
  failed: number;
  windowMs: number;
  recoverMs: number;
  slowest: number;
  actionMs: number;
  note: string;
  pass: boolean;
}

function windowOf(attempts: Attempt[], at: number): { failed: number; windowMs: number; recoverMs: number } {
  const failures = attempts.filter((attempt) => attempt.status === 0 || attempt.status >= 500);
  if (failures.length === 0) return { failed: 0, windowMs: 0, recoverMs: 0 };
  // A request sent before the fault and failing after it counts from the fault.
  const first = Math.max(at, Math.min(...failures.map((attempt) => attempt.sentAt)));
  const last = Math.max(...failures.map((attempt) => attempt.doneAt));
  const lastSent = Math.max(...failures.map((attempt) => attempt.sentAt));
  const recovered = attempts
    .filter((attempt) => attempt.status > 0 && attempt.status < 500 && attempt.sentAt > lastSent)
    .reduce((soonest, attempt) => Math.min(soonest, attempt.doneAt), Number.POSITIVE_INFINITY);
  return { failed: failures.length, windowMs: last - first, recoverMs: (Number.isFinite(recovered) ? recovered : last) - at };
}

export function faultRows(traffic: Traffic, phases: PhaseWindow[], verification: Verification): FaultRow[] {
  const acknowledged = [...traffic.creates.values(), ...traffic.lines, ...traffic.approvals];
  return phases.map((phase) => {
    const attempts = traffic.attempts.filter((attempt) => attempt.phase === phase.fault);
    const count = (findings: { phase: string }[]) => findings.filter((finding) => finding.phase === phase.fault).length;
    const lost = count(verification.lost);
    const duplicates = count(verification.duplicates);
    const eventsUndelivered = count(verification.events.undelivered);
    const { failed, windowMs, recoverMs } = windowOf(attempts, phase.at);
    const target = WINDOW_TARGET_MS[phase.fault];
    return {
      fault: phase.fault,
      requests: attempts.length,
      acknowledged: acknowledged.filter((write) => write.phase === phase.fault).length,
      lost,
      duplicates,
      eventsUndelivered,
      failed,
      windowMs,
      recoverMs,
      slowest: attempts.reduce((max, attempt) => Math.max(max, attempt.doneAt - attempt.sentAt), 0),
      actionMs: phase.actionMs,
      note: phase.note,
      pass: lost === 0 && duplicates === 0 && eventsUndelivered === 0 && (target === null || windowMs <= target),
    };
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function markdownTable(rows: FaultRow[]): string {
  const lines = [
    '| fault | requests | acknowledged writes | lost | duplicates | events undelivered | failed requests | 5xx window (target) | recovered after | slowest answer | result |',
    '| ----- | -------: | ------------------: | ---: | ---------: | -----------------: | --------------: | ------------------- | --------------: | -------------: | ------ |',
  ];
  for (const row of rows) {
    const target = WINDOW_TARGET_MS[row.fault];
    lines.push(
      `| ${FAULT_LABEL[row.fault]} (${row.note}) | ${row.requests} | ${row.acknowledged} | ${row.lost} | ${row.duplicates} | ${row.eventsUndelivered} | ` +
        `${row.failed} | ${seconds(row.windowMs)} (${target === null ? '-' : `<= ${seconds(target)}`}) | ${seconds(row.recoverMs)} | ` +
        `${seconds(row.slowest)} | ${row.pass ? 'PASS' : 'FAIL'} |`,
    );
  }
  return lines.join('\n');
}
