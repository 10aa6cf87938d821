import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';

export const nproc = (): number => availableParallelism();

/** The commit measured and how many files under services/, packages/ and prisma/ differ from it. */
export function gitState(cwd: string): { commit: string; dirtyFiles: number } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8', timeout: 5000 }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', 'services', 'packages', 'prisma'], {
      cwd,
      encoding: 'utf8',
      timeout: 5000,
    });
    return { commit, dirtyFiles: status.split('\n').filter((line) => line.trim() !== '').length };
  } catch {
    return { commit: 'unknown', dirtyFiles: -1 };
  }
}

/** What each benchmark's summary opens with: when it ran, on which code, machine and Node. */
export interface RunHeader {
  startedAt: string;
  commit: string;
  dirtyFiles: number;
  cpus: number;
  cpuModel: string;
  node: string;
}

export function runHeader(startedAt: string, code: { commit: string; dirtyFiles: number }): RunHeader {
  return {
    startedAt,
    commit: code.commit,
    dirtyFiles: code.dirtyFiles,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
  };
}
