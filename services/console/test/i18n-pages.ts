/**
 * Checks that a console page reads in Turkish: no English stopword left in the text an operator sees. Tests of
 * every translated page use it on the HTML a request answered (or a browser page's content).
 */

/** Words that a Turkish page never holds and almost every English sentence does. */
export const ENGLISH_STOPWORDS = ['the', 'and', 'of', 'to', 'is', 'for', 'with', 'your'] as const;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/** The page's visible text: scripts, styles, templates and tags removed, entities decoded, blanks collapsed. */
export function visibleText(htmlText: string): string {
  return htmlText
    .replace(/<(script|style|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (lower in ENTITIES) return ENTITIES[lower] as string;
      if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
      if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
      return whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
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
 * Throws, naming each English stopword and where it stands, unless the page's visible text is free of them;
 * returns that text (for further checks of the Turkish words expected on the page).
 */
export function expectTurkish(htmlText: string): string {
  const text = visibleText(htmlText);
  const leftovers = englishLeftovers(text);
  if (leftovers.length > 0) throw new Error(`English left on a Turkish page:\n  ${leftovers.join('\n  ')}`);
  return text;
}
