/**
 * How alike two name tokens (from normaliseName) are, 0..1, and the keys the index finds near tokens by. A token of one
 * letter is an initial.
 */

/** What an initial scores against a word it begins: a match, but weaker than the word itself. */
export const INITIAL_SIMILARITY = 0.8;
/** Below this two tokens are different words: the pair counts for nothing. */
export const MIN_TOKEN_SIMILARITY = 0.7;

/**
 * Jaro-Winkler similarity on top of an edit-distance ladder. Jaro-Winkler alone is generous to short words that share
 * a prefix (Yılmaz/Yıldız 0.87, two common surnames), so the number of edits (optimal string alignment: insertions,
 * deletions, substitutions and adjacent swaps) bounds it: one edit (a typo) scores at least 0.92 in words of four
 * letters or more and 0.85 in three-letter words; two edits score at most 0.88 in words of eight letters or more
 * (Mohammed/Muhammad) and at most 0.6 (no match) in shorter ones; three or more at most 0.5.
 */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 1 || b.length === 1) {
    if (a.length === 1 && b.length === 1) return 0;
    return a[0] === b[0] ? INITIAL_SIMILARITY : 0;
  }
  const shorter = Math.min(a.length, b.length);
  const edits = editDistance(a, b, 3);
  const jw = jaroWinkler(a, b);
  if (edits === 1) return shorter >= 4 ? Math.max(jw, 0.92) : shorter === 3 ? Math.max(jw, 0.85) : Math.min(jw, 0.6);
  if (edits === 2) return Math.min(jw, shorter >= 8 ? 0.88 : 0.6);
  return Math.min(jw, 0.5);
}

/** Jaro-Winkler similarity (prefix scale 0.1, prefix of at most four characters). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const matchedA = new Uint8Array(a.length);
  const matchedB = new Uint8Array(b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i += 1) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j += 1) {
      if (matchedB[j] === 0 && a.charCodeAt(i) === b.charCodeAt(j)) {
        matchedA[i] = 1;
        matchedB[j] = 1;
        matches += 1;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < a.length; i += 1) {
    if (matchedA[i] === 0) continue;
    while (matchedB[k] === 0) k += 1;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions += 1;
    k += 1;
  }
  const jaro = (matches / a.length + matches / b.length + (matches - transpositions / 2) / matches) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1;
  return jaro + prefix * 0.1 * (1 - jaro);
}

/** Optimal string alignment distance, counted up to `max` (anything further is `max`). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) >= max) return max;
  const width = b.length + 1;
  let before = new Array<number>(width).fill(0);
  let previous = Array.from({ length: width }, (_, j) => j);
  let current = new Array<number>(width).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, (before[j - 2] as number) + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= max) return max;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[b.length] as number, max);
}

/** The token with each one letter left out, once each: a typo in either of two tokens leaves a variant they share. */
export function deletions(token: string): string[] {
  const variants = new Set<string>();
  for (let i = 0; i < token.length; i += 1) variants.add(token.slice(0, i) + token.slice(i + 1));
  return [...variants];
}

/**
 * A consonant skeleton for transliterations: the first letter, then the consonants with vowels dropped, q as k, w as v,
 * d as t (Turkish writes a final d as t: Ahmed/Ahmet, Mahmud/Mahmut) and doubled letters once: Muhammad, Mohammed and
 * Mehmet are all `mhmt`, Yusuf and Yousef `ysf`. It only brings candidates; the score still comes from
 * {@link tokenSimilarity}.
 */
export function skeleton(token: string): string {
  let key = token[0] ?? '';
  for (let i = 1; i < token.length; i += 1) {
    let letter = token[i] as string;
    if ('aeiou'.includes(letter)) continue;
    if (letter === 'q') letter = 'k';
    else if (letter === 'w') letter = 'v';
    else if (letter === 'd') letter = 't';
    if (key[key.length - 1] !== letter) key += letter;
  }
  return key;
}
