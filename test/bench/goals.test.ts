/**
 * The goal table behind every section of docs/benchmarks.md: floor and ratio columns when a goal has a floor, PASS and
 * FAIL as the figures say, ranges over rounds from low to high, and no ratio made up from a floor that is missing.
 */
import { describe, expect, it } from '@jest/globals';
import { goalTable, goalVerdict, percentOf, rangeOf, timesOf } from '../../bench/lib/goals.js';

describe('goal table', () => {
  it('gives the floor, the ratio and pass or FAIL of each goal', () => {
    const table = goalTable([
      { goal: 'rows/s >= 25% of the floor', measured: '9,000', floor: '60,000', ratio: percentOf(9_000, 60_000), met: false },
      { goal: 'every row exported', measured: '100,000', met: true },
    ]);
    expect(table.split('\n')).toEqual([
      '| Goal | Measured | Floor | Ratio | Result |',
      '|---|---:|---:|---:|---|',
      '| rows/s >= 25% of the floor | 9,000 | 60,000 | 15% | **FAIL** |',
      '| every row exported | 100,000 |  |  | **pass** |',
    ]);
  });

  it('leaves the floor columns out when no goal has a floor', () => {
    expect(goalTable([{ goal: 'no errors', measured: '0', met: true }], 'Check').split('\n')[0]).toBe('| Check | Measured | Result |');
  });

  it('escapes a pipe in a cell so the row keeps its columns', () => {
    expect(goalTable([{ goal: 'a | b', measured: '1', met: true }])).toContain('| a \\| b | 1 |');
  });

  it('refuses an empty table', () => {
    expect(() => goalTable([])).toThrow('at least one goal');
  });

  it('says how many goals were missed', () => {
    expect(goalVerdict([{ goal: 'a', measured: '1', met: true }])).toMatch(/^All 1 goals met/);
    expect(
      goalVerdict([
        { goal: 'a', measured: '1', met: false },
        { goal: 'b', measured: '1', met: true },
      ]),
    ).toMatch(/^1 of 2 goals missed/);
  });
});

describe('ratios and ranges', () => {
  it('gives a share and a multiple of the floor', () => {
    expect(percentOf(83, 100)).toBe('83%');
    expect(percentOf(4.2, 100)).toBe('4.2%');
    expect(percentOf(2_500, 1_000)).toBe('250%');
    expect(timesOf(310, 100)).toBe('3.1x');
    expect(timesOf(50, 100)).toBe('0.50x');
    expect(timesOf(1_234, 10)).toBe('123x');
  });

  it('makes no ratio up from a floor that is missing, zero or not a number', () => {
    expect(percentOf(1, 0)).toBe('n/a');
    expect(percentOf(Number.NaN, 10)).toBe('n/a');
    expect(timesOf(1, Number.POSITIVE_INFINITY)).toBe('n/a');
    expect(timesOf(-1, 10)).toBe('n/a');
  });

  it('gives the rounds as one figure when they agree, else low to high whatever their order', () => {
    const whole = (value: number) => Math.round(value).toLocaleString('en-US');
    expect(rangeOf([1_200, 1_200.2], whole)).toBe('1,200');
    expect(rangeOf([1_389, 1_027, 1_100], whole)).toBe('1,027–1,389');
    expect(rangeOf([Number.NaN, 5], whole)).toBe('5');
    expect(rangeOf([], whole)).toBe('n/a');
  });
});
