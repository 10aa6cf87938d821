import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { createLogger } from '../src/index.js';

describe('a logger writing to a stream', () => {
  it('writes one redacted JSON object per line, with the service and a timestamp', () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ service: 'ledger', stream });
    logger.info('deposit created', { requestId: 'req-12345678', iban: 'TR330006100519786457841326' });
    logger.debug('not at info level');
    const lines = chunks.join('').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(line).toMatchObject({
      level: 'info',
      message: 'deposit created',
      service: 'ledger',
      requestId: 'req-12345678',
      iban: 'TR**…1326',
    });
    expect(typeof line.timestamp).toBe('string');
  });
});
