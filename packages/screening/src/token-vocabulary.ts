import { deletions, MIN_TOKEN_SIMILARITY, skeleton, tokenSimilarity } from './token-similarity.js';

/** Words shorter than this are found only as they are written (a typo in a two-letter word is another word). */
const MIN_TYPO_LENGTH = 3;

/**
 * Every distinct token of the indexed names, numbered, with two keys that lead from a screened word to the listed
 * words near it: its one-letter deletions (two words one typo apart, a swap included, share one) and its consonant
 * skeleton (transliterations: Mohammed, Muhammad, Mehmet).
 */
export class TokenVocabulary {
  private readonly ids = new Map<string, number>();
  private readonly tokens: string[] = [];
  private readonly byDeletion = new Map<string, number[]>();
  private readonly bySkeleton = new Map<string, number[]>();

  get size(): number {
    return this.tokens.length;
  }

  /** The token's id, numbering it (and keying it) the first time it is seen. */
  add(token: string): number {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    const id = this.tokens.length;
    this.ids.set(token, id);
    this.tokens.push(token);
    if (token.length >= MIN_TYPO_LENGTH) for (const variant of deletions(token)) push(this.byDeletion, variant, id);
    if (token.length > 1) push(this.bySkeleton, skeleton(token), id);
    return id;
  }

  token(id: number): string {
    return this.tokens[id] as string;
  }

  /**
   * The listed tokens similar enough to `token` to count (tokenSimilarity at least MIN_TOKEN_SIMILARITY), with their
   * similarity: the token itself, tokens one insertion, deletion, substitution or swap away, and tokens of the same
   * skeleton. In the order found, so the same vocabulary always answers the same.
   */
  similar(token: string): Map<number, number> {
    const found = new Set<number>();
    const add = (id: number | undefined) => {
      if (id !== undefined) found.add(id);
    };
    const addAll = (ids: number[] | undefined) => ids?.forEach(add);
    add(this.ids.get(token));
    if (token.length >= MIN_TYPO_LENGTH - 1) addAll(this.byDeletion.get(token));
    if (token.length >= MIN_TYPO_LENGTH) {
      for (const variant of deletions(token)) {
        add(this.ids.get(variant));
        addAll(this.byDeletion.get(variant));
      }
    }
    addAll(this.bySkeleton.get(skeleton(token)));
    const similar = new Map<number, number>();
    for (const id of found) {
      const value = tokenSimilarity(token, this.tokens[id] as string);
      if (value >= MIN_TOKEN_SIMILARITY) similar.set(id, value);
    }
    return similar;
  }
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
