import type { EntryName, ListEntry, NameQuality } from './list-entry.js';
import { scoreTokens, tokenWeight, type TokenMatch } from './name-score.js';
import { normaliseName } from './normalise-name.js';
import { TokenVocabulary } from './token-vocabulary.js';
import { INITIAL_SIMILARITY, tokenSimilarity } from './token-similarity.js';

/**
 * The default threshold, chosen on the tests' names (test/screening-index.test.ts): every required kind of match
 * scores at least 0.83 (a word order swapped or Turkish letters written as ASCII 1; one typo in every word 0.93 to
 * 0.97; initials for the given names 0.86 to 0.92; one extra or one missing middle name 0.83 to 0.9), while common
 * Turkish names score at most 0.72 against the real UN list (sharing one word with a listed name, or differing by two
 * letters in a short word, as Yılmaz and Yıldız do, counts for little).
 */
export const DEFAULT_THRESHOLD = 0.82;
/** How a match on a name counts by the list's grade of it: a weak (`low`) alias less than the others. */
const QUALITY_WEIGHT: Record<NameQuality, number> = { primary: 1, 'original-script': 1, good: 1, aka: 1, fka: 1, low: 0.9 };

export interface ScreenOptions {
  /** Hits scoring below this are left out; {@link DEFAULT_THRESHOLD} unless given (0 < threshold <= 1). */
  threshold?: number;
  /** At most this many hits, best first; 10 unless given. */
  limit?: number;
}

export interface ScreeningHit {
  entry: ListEntry;
  /** The entry's name that matched best (its primary name, an alias or its name in the original script). */
  name: EntryName;
  /** 0..1, rounded to four decimals: the name score times the grade of the name ({@link QUALITY_WEIGHT}). */
  score: number;
  /** The token pairs the score was made of, screened token first. */
  matches: TokenMatch[];
}

/**
 * Screens names against list entries. Built once from entries (every name of every entry normalised and indexed by
 * token); `screen` finds candidate names through the index (the same word, a word one typo away, the same consonant
 * skeleton, an initial) and scores only those that could still reach the threshold. Deterministic: the same entries
 * and the same name give the same hits in the same order (best score, then source, then id).
 */
export class ScreeningIndex {
  private readonly entries: readonly ListEntry[];
  private readonly vocabulary = new TokenVocabulary();
  /** Per indexed name: its entry, which of the entry's names, and its tokens (vocabulary ids). */
  private readonly nameEntry: Int32Array;
  private readonly nameIndex: Int32Array;
  private readonly nameTokens: Int32Array[];
  /** Per indexed name: the sum of its tokens' weights (tokenWeight). */
  private readonly nameWeight: Float64Array;
  /** Per vocabulary token: the names holding it. Per letter: the names holding it as an initial. */
  private readonly postings: Int32Array[];
  private readonly initialPostings = new Map<string, Int32Array>();
  /**
   * Per name, reset by stamps rather than cleared: the query that last touched it; the query token that last did and
   * the best similarity it found there; and over the query's tokens, the sum of those best similarities, plain and
   * weighted by the query token's weight.
   */
  private readonly seenInQuery: Int32Array;
  private readonly seenForToken: Int32Array;
  private readonly tokenBest: Float64Array;
  private readonly reach: Float64Array;
  private readonly reachWeighted: Float64Array;
  private stamp = 0;

  constructor(entries: readonly ListEntry[]) {
    this.entries = entries;
    const nameEntry: number[] = [];
    const nameIndex: number[] = [];
    const nameTokens: Int32Array[] = [];
    const nameWeight: number[] = [];
    const postings: number[][] = [];
    const initials = new Map<string, number[]>();
    entries.forEach((entry, entryAt) => {
      const seen = new Set<string>();
      entry.names.forEach((name, at) => {
        const { tokens, orderFree } = normaliseName(name.text);
        if (tokens.length === 0 || seen.has(orderFree)) return;
        seen.add(orderFree);
        const id = nameEntry.length;
        nameEntry.push(entryAt);
        nameIndex.push(at);
        const ids = tokens.map((token) => this.vocabulary.add(token));
        nameTokens.push(Int32Array.from(ids));
        nameWeight.push(tokens.reduce((sum, token) => sum + tokenWeight(token), 0));
        for (const [k, token] of tokens.entries()) {
          if (token.length === 1) push(initials, token, id);
          const list = (postings[ids[k] as number] ??= []);
          if (list[list.length - 1] !== id) list.push(id);
        }
      });
    });
    this.nameEntry = Int32Array.from(nameEntry);
    this.nameIndex = Int32Array.from(nameIndex);
    this.nameTokens = nameTokens;
    this.nameWeight = Float64Array.from(nameWeight);
    this.postings = Array.from({ length: this.vocabulary.size }, (_, id) => Int32Array.from(postings[id] ?? []));
    for (const [letter, names] of initials) this.initialPostings.set(letter, Int32Array.from(new Set(names)));
    this.seenInQuery = new Int32Array(nameEntry.length);
    this.seenForToken = new Int32Array(nameEntry.length);
    this.tokenBest = new Float64Array(nameEntry.length);
    this.reach = new Float64Array(nameEntry.length);
    this.reachWeighted = new Float64Array(nameEntry.length);
  }

  /** How many entries and names (primary, aliases, original script; duplicates within an entry once) are indexed. */
  get size(): { entries: number; names: number; tokens: number } {
    return { entries: this.entries.length, names: this.nameEntry.length, tokens: this.vocabulary.size };
  }

  /** The entries whose best name scores at least the threshold against `name`, best first. */
  screen(name: string, options: ScreenOptions = {}): ScreeningHit[] {
    const threshold = options.threshold ?? DEFAULT_THRESHOLD;
    const limit = options.limit ?? 10;
    if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold ${threshold} is not in (0, 1]`);
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit ${limit} is not a positive whole number`);
    const query = normaliseName(name).tokens;
    if (query.length === 0) return [];
    const weights = query.map(tokenWeight);
    const queryWeight = weights.reduce((sum, weight) => sum + weight, 0);
    const queryStamp = this.nextStamp(query.length + 1);
    const touched: number[] = [];
    // Query initials find no candidates (a letter begins too many names) but may still score: count them as matched.
    let initialsReach = 0;
    let initialsWeighted = 0;
    const memo = query.map((token, i) => {
      const weight = weights[i] as number;
      const similar = token.length === 1 ? new Map<number, number>() : this.vocabulary.similar(token);
      if (token.length === 1) {
        initialsReach += INITIAL_SIMILARITY;
        initialsWeighted += weight * INITIAL_SIMILARITY;
      }
      const tokenStamp = queryStamp + 1 + i;
      const visit = (names: Int32Array, value: number) => {
        for (const id of names) this.touch(id, queryStamp, tokenStamp, value, weight, touched);
      };
      for (const [vocabularyId, value] of similar) visit(this.postings[vocabularyId] as Int32Array, value);
      const initial = token.length > 1 ? this.initialPostings.get(token[0] as string) : undefined;
      if (initial) visit(initial, INITIAL_SIMILARITY);
      return similar;
    });
    // What the keys found bounds the score (scoreTokens): the screened name is covered at most by the best similarity
    // each of its tokens found, weighted; the listed name at most by those similarities on tokens of weight at most 1.
    const best = new Map<number, ScreeningHit>();
    for (const id of touched) {
      const queryCover = ((this.reachWeighted[id] as number) + initialsWeighted) / queryWeight;
      const listedCover = Math.min(1, ((this.reach[id] as number) + initialsReach) / (this.nameWeight[id] as number));
      if ((queryCover + listedCover) / 2 < threshold - 1e-9) continue;
      const tokens = this.nameTokens[id] as Int32Array;
      const listed = Array.from(tokens, (token) => this.vocabulary.token(token));
      const similarity = (i: number, j: number) => {
        const known = memo[i] as Map<number, number>;
        const token = tokens[j] as number;
        let value = known.get(token);
        if (value === undefined) {
          value = tokenSimilarity(query[i] as string, listed[j] as string);
          known.set(token, value);
        }
        return value;
      };
      const entryAt = this.nameEntry[id] as number;
      const entry = this.entries[entryAt] as ListEntry;
      const entryName = entry.names[this.nameIndex[id] as number] as EntryName;
      const { score, matches } = scoreTokens(query, listed, similarity);
      const weighted = Math.round(score * QUALITY_WEIGHT[entryName.quality] * 10_000) / 10_000;
      if (weighted < threshold) continue;
      const known = best.get(entryAt);
      if (!known || weighted > known.score) best.set(entryAt, { entry, name: entryName, score: weighted, matches });
    }
    return [...best.values()]
      .sort((a, b) => b.score - a.score || compare(a.entry.source, b.entry.source) || compare(a.entry.id, b.entry.id))
      .slice(0, limit);
  }

  /** Adds a query token's similarity to a name: once per token, its best if several keys lead there. */
  private touch(id: number, queryStamp: number, tokenStamp: number, similarity: number, weight: number, touched: number[]): void {
    if (this.seenInQuery[id] !== queryStamp) {
      this.seenInQuery[id] = queryStamp;
      this.reach[id] = 0;
      this.reachWeighted[id] = 0;
      touched.push(id);
    }
    let gain = similarity;
    if (this.seenForToken[id] !== tokenStamp) {
      this.seenForToken[id] = tokenStamp;
    } else {
      gain = similarity - (this.tokenBest[id] as number);
      if (gain <= 0) return;
    }
    this.tokenBest[id] = similarity;
    this.reach[id] = (this.reach[id] as number) + gain;
    this.reachWeighted[id] = (this.reachWeighted[id] as number) + gain * weight;
  }

  /** Reserves `count` fresh stamps; when they would overflow, the stamp arrays are cleared and counting restarts. */
  private nextStamp(count: number): number {
    if (this.stamp + count >= 0x7fffffff) {
      this.stamp = 0;
      this.seenInQuery.fill(0);
      this.seenForToken.fill(0);
    }
    const first = this.stamp + 1;
    this.stamp += count;
    return first;
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
