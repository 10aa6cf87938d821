import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  MAX_MINOR_UNITS,
  MoneyInputError,
  formatLira,
  formatLocalDay,
  formatLocalTime,
  formatTry,
  isKnownTimeZone,
  isMinorUnits,
  liraInputValue,
  parseLira,
} from '../src/index.js';

describe('parseLira reads what people type as lira', () => {
  it.each([
    ['1500', 150000n],
    ['1500.00', 150000n],
    ['1500,00', 150000n],
    ['1.500,00', 150000n],
    ['1,500.00', 150000n],
    ['1 500,00', 150000n],
    ['1\u00a0500,00', 150000n],
    ['1\u202f500', 150000n],
    ['1.500.000', 150000000n],
    ['1,500,000.5', 150000050n],
    ['1500,5', 150050n],
    ['1500.05', 150005n],
    ['0,01', 1n],
    ['  2000,01 ', 200001n],
    ['₺1.500,00', 150000n],
    ['1.500,00 ₺', 150000n],
    ['1500 TL', 150000n],
    ['try 1500', 150000n],
  ])('%j is %s kuruş', (typed, minor) => {
    expect(parseLira(typed)).toBe(minor);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['₺', 'is empty'],
    ['1.500', 'can be read two ways'],
    ['1,500', 'can be read two ways'],
    ['12,345', 'can be read two ways'],
    ['1500,123', 'one or two digits'],
    ['1500.', 'one or two digits'],
    ['-5', 'without a sign'],
    ['+5', 'without a sign'],
    ['0', 'more than zero'],
    ['0,00', 'more than zero'],
    ['1.50.000', 'wrong places'],
    ['15,00.000', 'one or two digits'],
    ['15,00.00', 'wrong places'],
    ['1.500,000.00', 'mixes'],
    ['1 500.000,00', 'two different thousands separators'],
    ['1e3', 'such as'],
    ['.5', 'such as'],
    ['abc', 'such as'],
    ['١٥٠٠', 'such as'],
    ['1500\u0000', 'such as'],
    ['99999999999999999', 'too large'],
    ['9'.repeat(65), 'such as'],
  ])('refuses %j (%s)', (typed, reason) => {
    expect(() => parseLira(typed)).toThrow(MoneyInputError);
    expect(() => parseLira(typed)).toThrow(reason);
  });

  it('reads the three forms people write one amount in as one amount', () => {
    expect(new Set(['1.500,00', '1500.00', '1500'].map(parseLira))).toEqual(new Set([150000n]));
  });

  it('reads back every amount it formats, in every form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_MINOR_UNITS }), (minor) => {
        expect(parseLira(formatLira(minor))).toBe(minor);
        expect(parseLira(formatTry(minor))).toBe(minor);
        expect(parseLira(liraInputValue(minor))).toBe(minor);
        const english = formatLira(minor).replace(/[.,]/g, (c) => (c === '.' ? ',' : '.'));
        expect(parseLira(english)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws anything but MoneyInputError, and never returns a non-positive or oversized amount', () => {
    const typed = fc.oneof(fc.string(), fc.stringMatching(/^[0-9., ₺TLRY-]{0,24}$/));
    fc.assert(
      fc.property(typed, (text) => {
        try {
          const minor = parseLira(text);
          expect(minor > 0n && minor <= MAX_MINOR_UNITS).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(MoneyInputError);
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('formatting', () => {
  it('writes Turkish grouping with a decimal comma, exactly for any size', () => {
    expect(formatTry('150000')).toBe('1.500,00 ₺');
    expect(formatTry(5n)).toBe('0,05 ₺');
    expect(formatTry('-123456789')).toBe('-1.234.567,89 ₺');
    expect(formatTry('999999999999999999')).toBe('9.999.999.999.999.999,99 ₺');
    expect(formatLira('100')).toBe('1,00');
    expect(liraInputValue('198500')).toBe('1985,00');
  });

  it('shows a dash or nothing for what is not an amount', () => {
    for (const bad of [null, undefined, '', 'abc', '1.5', '1e3']) {
      expect(formatTry(bad)).toBe('—');
      expect(formatLira(bad)).toBe('');
      expect(liraInputValue(bad)).toBe('');
    }
  });

  it('knows the wire form of an amount', () => {
    expect(isMinorUnits('150000')).toBe(true);
    for (const bad of ['0', '0150', '-1', '1.5', '1'.repeat(19), 150000]) expect(isMinorUnits(bad)).toBe(false);
  });
});

describe('local times beside amounts', () => {
  it('writes an instant in the desk zone in Turkish order, 24-hour, and a day as dd.mm.yyyy', () => {
    expect(formatLocalTime(new Date('2026-01-31T21:30:05Z'), 'Europe/Istanbul')).toBe('01.02.2026 00:30:05');
    expect(formatLocalTime(new Date('2026-01-31T12:00:00Z'), 'UTC')).toBe('31.01.2026 12:00:00');
    expect(formatLocalDay('2026-12-01')).toBe('01.12.2026');
    expect(formatLocalDay('not a day')).toBe('not a day');
    expect(isKnownTimeZone('Europe/Istanbul')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });
});
