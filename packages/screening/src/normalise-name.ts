/**
 * Letters folded by table before anything else. Turkish has two i's: dotted İ/i and dotless I/ı. Lower-casing `İ`
 * with String#toLowerCase gives `i` plus a combining dot, and toLocaleLowerCase answers differently under `tr` and
 * `en`; a table answers the same on every machine. All four become `i`, as a Turkish name written on an ASCII
 * keyboard has them. The other Turkish letters lose their marks (Ş→s, Ğ→g, Ç→c, Ö→o, Ü→u), and the Latin letters that
 * NFKD does not decompose are spelled out.
 */
const FOLD: Record<string, string> = {
  İ: 'i',
  I: 'i',
  ı: 'i',
  Ş: 's',
  ş: 's',
  Ğ: 'g',
  ğ: 'g',
  Ç: 'c',
  ç: 'c',
  Ö: 'o',
  ö: 'o',
  Ü: 'u',
  ü: 'u',
  ß: 'ss',
  Æ: 'ae',
  æ: 'ae',
  Œ: 'oe',
  œ: 'oe',
  Ø: 'o',
  ø: 'o',
  Đ: 'd',
  đ: 'd',
  Ð: 'd',
  ð: 'd',
  Ł: 'l',
  ł: 'l',
  Þ: 'th',
  þ: 'th',
};
const FOLDED = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'gu');
/** Apostrophes and ayn/hamza marks of transliterations join what they stand between: `O'Neil`, `'Abd`, `Da'ud`. */
const APOSTROPHES = /['’‘`´ʼʻʿʾ]/gu;

/**
 * Titles and forms of address dropped from a name (English, and Turkish: Sayın, Bay, Bayan, Av. for Avukat, Doç. for
 * Doçent), compared after folding. Words that are part of listed names (Sheikh, Hajji, Mullah) are kept.
 */
export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'madam',
  'mme',
  'mlle',
  'sn',
  'sayin',
  'bay',
  'bayan',
  'av',
  'doc',
]);

export interface NormalisedName {
  /** The name's words, folded to lower-case ASCII where they are Latin, in the order written; one letter is an initial. */
  tokens: string[];
  /** The tokens joined by one space. */
  text: string;
  /** The tokens sorted and joined: the same for `Yılmaz Ayşe` and `AYSE YILMAZ`. */
  orderFree: string;
}

/**
 * A name as the index compares it: Turkish letters by table (İ/I/ı/i alike, Ş→s, Ğ→g, Ç→c, Ö→o, Ü→u), other
 * diacritics folded (NFKD, marks dropped), lower case, apostrophes joined, every other non-letter non-digit a break
 * between words, titles dropped. `M.` is the token `m` (an initial). Scripts other than Latin keep their letters.
 */
export function normaliseName(name: string): NormalisedName {
  const words = name
    .replace(FOLDED, (letter) => FOLD[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !HONORIFICS.has(word));
  return { tokens: words, text: words.join(' '), orderFree: [...words].sort().join(' ') };
}
