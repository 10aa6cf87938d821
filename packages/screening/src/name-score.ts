import { MIN_TOKEN_SIMILARITY } from './token-similarity.js';

/**
 * Particles of Arabic and Turkish names (al-, el-, bin, ibn, bint, abu, oğlu written apart) and the words that join
 * the words of an entity's name (and, of, the, ve): they carry little of who or what is named, so they weigh less
 * than the words around them.
 */
const PARTICLES: ReadonlySet<string> = new Set([
  'al',
  'el',
  'ul',
  'ad',
  'ud',
  'bin',
  'ben',
  'ibn',
  'bint',
  'abu',
  'oglu',
  'and',
  'of',
  'the',
  've',
]);

/** What a token counts for in a name: an initial half a word, a particle or joining word less, any other word one. */
export function tokenWeight(token: string): number {
  if (token.length === 1) return 0.5;
  return PARTICLES.has(token) ? 0.3 : 1;
}

/** One aligned pair: a token of the screened name and the listed name's token it was matched with. */
export interface TokenMatch {
  query: string;
  listed: string;
  similarity: number;
}

/**
 * Scores a screened name against a listed one, order-independent: every pair of tokens similar enough
 * ({@link MIN_TOKEN_SIMILARITY}) is a candidate, and pairs are taken best first, each token at most once (ties by
 * position, so the result is deterministic). The score is the mean of two coverages: how much of the screened name
 * the pairs cover and how much of the listed name, each weighted by {@link tokenWeight} and by the pair's similarity.
 * A token of either name left unmatched lowers the score (extra and missing words alike); an identical set of words
 * in any order scores 1.
 */
export function scoreTokens(
  query: readonly string[],
  listed: readonly string[],
  similarity: (queryIndex: number, listedIndex: number) => number,
): { score: number; matches: TokenMatch[] } {
  const pairs: { i: number; j: number; value: number }[] = [];
  for (let i = 0; i < query.length; i += 1) {
    for (let j = 0; j < listed.length; j += 1) {
      const value = similarity(i, j);
      if (value >= MIN_TOKEN_SIMILARITY) pairs.push({ i, j, value });
    }
  }
  pairs.sort((a, b) => b.value - a.value || a.i - b.i || a.j - b.j);
  const usedQuery = new Uint8Array(query.length);
  const usedListed = new Uint8Array(listed.length);
  let coveredQuery = 0;
  let coveredListed = 0;
  const matches: TokenMatch[] = [];
  for (const { i, j, value } of pairs) {
    if (usedQuery[i] === 1 || usedListed[j] === 1) continue;
    usedQuery[i] = 1;
    usedListed[j] = 1;
    const q = query[i] as string;
    const l = listed[j] as string;
    coveredQuery += value * tokenWeight(q);
    coveredListed += value * tokenWeight(l);
    matches.push({ query: q, listed: l, similarity: value });
  }
  const queryWeight = query.reduce((sum, token) => sum + tokenWeight(token), 0);
  const listedWeight = listed.reduce((sum, token) => sum + tokenWeight(token), 0);
  if (queryWeight === 0 || listedWeight === 0) return { score: 0, matches: [] };
  return { score: (coveredQuery / queryWeight + coveredListed / listedWeight) / 2, matches };
}
