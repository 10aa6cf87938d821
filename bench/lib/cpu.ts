/**
 * CPU accounting per component during a measured window, from /proc (Linux): the load generator (this
 * process), each server child, the PostgreSQL backends of the bench database plus PostgreSQL's background
 * processes, and redis-server. Also the whole machine's busy share. Clock-tick resolution (10 ms); a backend
 * that exits inside the window loses its share, so PostgreSQL is a slight undercount.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // CLK_TCK = 100 on Linux

export type CpuSnapshot = {
  at: number;
  self: NodeJS.CpuUsage;
  pids: Map<number, number>; // pid -> utime+stime ticks
  groups: Map<string, number[]>; // component -> pids
  machine: { busy: number; total: number };
};

export interface CpuWindow {
  /** CPU milliseconds used per component in the window. */
  ms: Record<string, number>;
  /** Machine-wide busy share of all cores, 0..1. */
  machineBusy: number;
  wallMs: number;
}

function readStat(pid: number): { comm: string; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // fields[0] is state (field 3); utime is field 14, stime field 15 -> indexes 11 and 12 here.
    return { comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function machine(): { busy: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export interface CpuTargets {
  /** component name -> pid of a server child */
  children: Record<string, number | null>;
  databaseName: string;
}

export function snapshot(targets: CpuTargets): CpuSnapshot {
  const pids = new Map<number, number>();
  const groups = new Map<string, number[]>();
  const add = (group: string, pid: number, ticks: number) => {
    pids.set(pid, ticks);
    groups.set(group, [...(groups.get(group) ?? []), pid]);
  };
  for (const [name, pid] of Object.entries(targets.children)) {
    if (pid === null) continue;
    const stat = readStat(pid);
    if (stat) add(name, pid, stat.ticks);
  }
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    entries = [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    const stat = readStat(pid);
    if (!stat) continue;
    if (stat.comm === 'postgres') {
      const title = cmdline(pid);
      // Backends carry "user database host" in their title; others' databases are not counted.
      const isBackend = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]/.test(title);
      if (!isBackend || title.includes(` ${targets.databaseName} `)) add('postgres', pid, stat.ticks);
    } else if (stat.comm === 'redis-server') {
      add('redis', pid, stat.ticks);
    }
  }
  return { at: Date.now(), self: process.cpuUsage(), pids, groups, machine: machine() };
}

export function diff(before: CpuSnapshot, after: CpuSnapshot): CpuWindow {
  const ms: Record<string, number> = {};
  const self = process.cpuUsage(before.self);
  ms.loadgen = (self.user + self.system) / 1000;
  for (const [group, pids] of after.groups) {
    let ticks = 0;
    for (const pid of pids) ticks += (after.pids.get(pid) ?? 0) - (before.pids.get(pid) ?? 0);
    ms[group] = Math.max(0, ticks) * TICK_MS;
  }
  const total = after.machine.total - before.machine.total;
  return { ms, machineBusy: total > 0 ? (after.machine.busy - before.machine.busy) / total : 0, wallMs: after.at - before.at };
}

/** The machine's busy share over `ms` milliseconds, before anything of the bench runs (others' load). */
export async function machineBusyOver(ms: number): Promise<number> {
  const before = machine();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machine();
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.busy - before.busy) / total) * 1000) / 1000 : 0;
}
