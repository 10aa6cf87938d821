import { describe, expect, it } from '@jest/globals';
import { editDistance, INITIAL_SIMILARITY, jaroWinkler, MIN_TOKEN_SIMILARITY, skeleton, tokenSimilarity } from '../src/index.js';

describe('jaroWinkler', () => {
  it('gives the textbook values', () => {
    expect(jaroWinkler('martha', 'marhta')).toBeCloseTo(0.961, 3);
    expect(jaroWinkler('dwayne', 'duane')).toBeCloseTo(0.84, 3);
    expect(jaroWinkler('dixon', 'dicksonx')).toBeCloseTo(0.813, 3);
    expect(jaroWinkler('abc', 'abc')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps, up to the bound', () => {
    expect(editDistance('yilmaz', 'yilmza', 3)).toBe(1);
    expect(editDistance('yilmaz', 'yilmaz', 3)).toBe(0);
    expect(editDistance('mehmet', 'mehmt', 3)).toBe(1);
    expect(editDistance('yilmaz', 'yildiz', 3)).toBe(2);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(2);
  });
});

describe('tokenSimilarity', () => {
  it('scores one typo high, in long and short words', () => {
    for (const [a, b] of [
      ['yilmaz', 'yilmza'],
      ['ozturk', 'oztrk'],
      ['osman', 'usman'],
      ['kaya', 'kaja'],
    ]) {
      expect(tokenSimilarity(a as string, b as string)).toBeGreaterThanOrEqual(0.92);
    }
    expect(tokenSimilarity('ali', 'aly')).toBeGreaterThanOrEqual(0.85);
  });

  it('scores two edits in a short word as another word, and in a long word as a weaker match', () => {
    expect(tokenSimilarity('yilmaz', 'yildiz')).toBeLessThan(MIN_TOKEN_SIMILARITY);
    expect(tokenSimilarity('mehmet', 'ahmet')).toBeLessThan(MIN_TOKEN_SIMILARITY);
    const long = tokenSimilarity('mohammed', 'muhammad');
    expect(long).toBeGreaterThanOrEqual(MIN_TOKEN_SIMILARITY);
    expect(long).toBeLessThanOrEqual(0.88);
  });

  it('scores an initial against a word it begins, and nothing against others', () => {
    expect(tokenSimilarity('m', 'mehmet')).toBe(INITIAL_SIMILARITY);
    expect(tokenSimilarity('mehmet', 'm')).toBe(INITIAL_SIMILARITY);
    expect(tokenSimilarity('a', 'mehmet')).toBe(0);
    expect(tokenSimilarity('m', 'm')).toBe(1);
  });
});

describe('skeleton', () => {
  it('gives transliterations of one name one key', () => {
    expect(new Set(['mohammed', 'muhammad', 'mehmet', 'mohamad'].map(skeleton))).toEqual(new Set(['mhmt']));
    expect(skeleton('yusuf')).toBe(skeleton('yousef'));
    expect(skeleton('abdullah')).toBe(skeleton('abdallah'));
    expect(skeleton('yilmaz')).not.toBe(skeleton('yildiz'));
  });
});
