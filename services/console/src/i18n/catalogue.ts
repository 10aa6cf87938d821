/**
 * One area of the console's message catalogue: the English and the Turkish text of every key, side by side. The
 * compiler refuses a Turkish side that lacks a key of the English one or adds another; the catalogue test checks
 * both sides use the same `{placeholders}`.
 */
export interface Catalogue<K extends string> {
  en: Record<K, string>;
  tr: Record<K, string>;
}

export function defineMessages<const K extends string>(en: Record<K, string>, tr: Record<NoInfer<K>, string>): Catalogue<K> {
  return { en, tr };
}
