import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createLogger, repeatLimited } from '../src/index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', stream }) };
}

describe('a repeat-limited log', () => {
  it('writes the first of identical entries at once, then one line per interval saying how many were held back', () => {
    const { lines, logger } = capture();
    let now = 0;
    const log = repeatLimited(logger, { everyMs: 5_000, now: () => now });
    for (; now < 12_000; now += 1) log('warn', 'worker error', { error: new Error('MOVED 9263 127.0.0.1:7001') });
    expect(lines.map((line) => [line.message, line.repeated])).toEqual([
      ['worker error', undefined],
      ['worker error', 4_999],
      ['worker error', 4_999],
    ]);
    expect(lines[0]).toMatchObject({ level: 'warn', error: expect.objectContaining({ message: 'MOVED 9263 127.0.0.1:7001' }) });
  });

  it('tells entries apart by level, message and error text, so a new failure is never held back', () => {
    const { lines, logger } = capture();
    const log = repeatLimited(logger, { now: () => 0 });
    log('warn', 'worker error', { error: new Error('MOVED 1 a:1') });
    log('warn', 'worker error', { error: new Error('NOAUTH Authentication required.') });
    log('error', 'worker error', { error: new Error('MOVED 1 a:1') });
    log('warn', 'relay failed', { error: 'MOVED 1 a:1' });
    log('warn', 'worker error', { error: new Error('MOVED 1 a:1') });
    expect(lines).toHaveLength(4);
  });

  it('redacts like the logger it writes to', () => {
    const { lines, logger } = capture();
    repeatLimited(logger)('warn', 'payout failed', { iban: 'TR330006100519786457841326' });
    expect(lines[0]?.iban).toBe('TR**…1326');
  });
});
