/**
 * Checks that a console page reads in Turkish: no English stopword left in the text an operator sees. Tests of
 * every translated page use it on the HTML a request answered (or a browser page's content).
 */

/** Words that a Turkish page never holds and almost every English sentence does. */
export const ENGLISH_STOPWORDS = ['the', 'and', 'of', 'to', 'is', 'for', 'with', 'your'] as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in ENTITIES) return ENTITIES[lower] as string;
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return whole;
  });
}

/**
 * The page's visible text in its own language: scripts, styles, templates, comments, the doctype and tags removed, entities
 * decoded, blanks collapsed. An element marked `lang="en"` is left out with all it holds: the page says itself that
 * those words are English (the language switch, or the ledger's own explanation quoted on an error page).
 */
export function visibleText(htmlText: string): string {
  const words: string[] = [];
  // While inside an element marked English: its tag name and how many of that name are open.
  let skipping: { tag: string; depth: number } | null = null;
  const token = /<!--[\s\S]*?-->|<![^>]*>|<(script|style|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<(\/?)([a-zA-Z][\w-]*)([^>]*)>|[^<]+|</gi;
  for (const match of htmlText.matchAll(token)) {
    const [whole, , closing, rawTag, attributes = ''] = match;
    if (rawTag === undefined) {
      if (!skipping && !whole.startsWith('<')) words.push(decodeEntities(whole));
      continue;
    }
    const tag = rawTag.toLowerCase();
    if (VOID.has(tag) || attributes.endsWith('/')) continue;
    if (skipping) {
      if (tag === skipping.tag) skipping.depth += closing ? -1 : 1;
      if (skipping.depth === 0) skipping = null;
    } else if (!closing && tag !== 'html' && /\slang\s*=\s*["']?en\b/i.test(attributes)) {
      skipping = { tag, depth: 1 };
    }
    words.push(' ');
  }
  return words.join('').replace(/\s+/g, ' ').trim();
}

/** Each English stopword found in `text`, with a few words around it so a failure says where. */
export function englishLeftovers(text: string): string[] {
  const found: string[] = [];
  // Letters of both languages count as word characters, so "Tüm" never splits into a boundary.
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${ENGLISH_STOPWORDS.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  for (const match of text.matchAll(pattern)) {
    const start = Math.max(0, match.index - 40);
    found.push(`"${match[1]}" in "…${text.slice(start, match.index + match[0].length + 40)}…"`);
  }
  return found;
}

/**
 * Throws unless the page is Turkish: a document whose `<html lang>` says another language, or visible text holding
 * an English stopword (each named, with where it stands). Returns that text (for further checks of the Turkish words expected on the page).
 */
export function expectTurkish(htmlText: string): string {
  const documentLang = /<html\b[^>]*\slang\s*=\s*["']?([\w-]+)/i.exec(htmlText)?.[1];
  if (documentLang !== undefined && !/^tr\b/i.test(documentLang)) throw new Error(`The page says it is in "${documentLang}", not Turkish`);
  const text = visibleText(htmlText);
  const leftovers = englishLeftovers(text);
  if (leftovers.length > 0) throw new Error(`English left on a Turkish page:\n  ${leftovers.join('\n  ')}`);
  return text;
}
