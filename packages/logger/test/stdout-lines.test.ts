import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const LOGGER = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** Runs `body` in a fresh Node process with `createLogger` imported; returns its stdout. */
function runWithLogger(body: string): string {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER)};\n${body}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`child exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}

describe('the default logger on stdout', () => {
  it('writes every line, in order, including those logged just before the process exits', () => {
    const out = runWithLogger(`
      const logger = createLogger({ service: 'ledger' });
      for (let i = 1; i <= 3; i += 1) logger.info('line ' + i, { requestId: 'req-' + i });
      setImmediate(() => {
        logger.warn('after a turn', { apiKey: 'sk_live_acme_Zx9vQ2kLmN4pR7sT1uV3wY5aB8cD0eF2' });
        logger.info('right before exit');
        process.exit(0);
      });
    `);
    const lines = out
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines.map((line) => line.message)).toEqual(['line 1', 'line 2', 'line 3', 'after a turn', 'right before exit']);
    expect(lines[0]).toMatchObject({ level: 'info', service: 'ledger', requestId: 'req-1' });
    expect(typeof lines[0]?.timestamp).toBe('string');
    expect(out).not.toContain('Zx9vQ2kLmN4pR7sT1uV3wY5aB8cD0eF2');
  });

  it('writes the lines of one event-loop turn with one write', () => {
    const out = runWithLogger(`
      const writes = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (chunk, ...rest) => { writes.push(String(chunk)); return write(chunk, ...rest); };
      const logger = createLogger({ service: 'gateway' });
      for (let i = 1; i <= 5; i += 1) logger.info('http request', { status: 200 });
      setImmediate(() => setImmediate(() => write('writes=' + writes.length + '\\n')));
    `);
    expect(out.split('\n').filter((line) => line.includes('"http request"'))).toHaveLength(5);
    expect(out).toContain('writes=1\n');
  });
});
