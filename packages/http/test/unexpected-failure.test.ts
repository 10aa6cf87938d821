/**
 * The process-level backstop of runProcess: a rejection nobody handled, or an exception nobody caught, is one
 * JSON line on stderr naming the request whose work it was, and the process exits 1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const FIXTURE = fileURLToPath(new URL('./fixtures/failing-process.ts', import.meta.url));

async function failOnce(path: string, requestId: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the probe did not start: ${stderr}`)), 20_000);
      createInterface({ input: child.stdout }).on('line', (line) => {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      });
    });
    const answer = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'x-request-id': requestId } }).catch(() => null);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code] = await exited;
    clearTimeout(timer);
    return { code, answered: answer?.status ?? null, lines: stderr.trim().split('\n').filter(Boolean) };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('an unexpected failure in a service process', () => {
  it.each([
    ['/reject', 'unhandled rejection', 'a rejection nobody awaited'],
    ['/throw', 'uncaught exception', 'an exception nobody caught'],
  ])(
    '%s: logs one JSON line with the request id, then exits 1',
    async (path, kind, message) => {
      const requestId = `req-${kind.replace(' ', '-')}-0001`;
      const { code, lines } = await failOnce(path, requestId);
      expect(code).toBe(1);
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 'error', service: 'probe', message: `probe ${kind}; exiting`, requestId, error: message });
      expect(typeof line.timestamp).toBe('string');
    },
    40_000,
  );
});
