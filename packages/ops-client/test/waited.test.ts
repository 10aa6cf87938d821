import { describe, expect, it } from '@jest/globals';
import { waitedFor, waitedLongerThan } from '../src/index.js';

const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('waitedFor', () => {
  it.each([
    [0, '0s'],
    [59_000, '59s'],
    [60_000, '1m'],
    [59 * 60_000, '59m'],
    [61 * 60_000, '1h 1m'],
    [25 * 3_600_000, '1d 1h'],
    [-5_000, '0s'],
  ])('%i ms ago reads %s', (ms, text) => {
    expect(waitedFor(ago(ms), now)).toBe(text);
  });

  it('is empty without a start or with a start that is not a time', () => {
    expect(waitedFor(null, now)).toBe('');
    expect(waitedFor('yesterday', now)).toBe('');
  });

  it('tells whether a limit in minutes has passed', () => {
    expect(waitedLongerThan(ago(31 * 60_000), 30, now)).toBe(true);
    expect(waitedLongerThan(ago(30 * 60_000), 30, now)).toBe(false);
    expect(waitedLongerThan(null, 30, now)).toBe(false);
  });
});
