/**
 * Whether the name on a bank transfer could be the deposit's user, as the partner labelled them: money from
 * someone else's account is a classic fraud and compliance signal, so an operator sees it before approving.
 * A hint, never a decision: names are compared after Turkish case folding and with accents removed
 * (`AYŞE YILMAZ` is `Ayse Yılmaz`), word by word, a one-letter slip in a longer word and initials allowed.
 */

const FOLD: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', i: 'i', ö: 'o', ş: 's', ü: 'u', â: 'a', î: 'i', û: 'u' };

/**
 * The words of a name, lower-cased, accents folded, punctuation dropped. Turkish lower-casing (`I` to `ı`, `İ` to `i`)
 * gives the same words as the default one here, which turns `I` into `i` and `İ` into `i` and a dot the accents go
 * with, and costs half the name's time (an import compares thousands of names).
 */
export function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .normalize('NFC')
    .replace(/[çğıiöşüâîû]/g, (c) => FOLD[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** At most one letter added, dropped or changed. */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i += 1;
      j += 1;
      continue;
    }
    edits += 1;
    if (edits > 1) return false;
    if (a.length > b.length) i += 1;
    else if (b.length > a.length) j += 1;
    else {
      i += 1;
      j += 1;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function wordMatches(labelWord: string, senderWord: string): boolean {
  if (labelWord === senderWord) return true;
  // An initial ("A. Yılmaz") stands for the word it begins.
  if (senderWord.length === 1 || labelWord.length === 1) return labelWord[0] === senderWord[0];
  return labelWord.length >= 4 && senderWord.length >= 4 && withinOneEdit(labelWord, senderWord);
}

/** True when the sender's name carries the label's words: both of a two-word name, two of a longer one. */
export function resemblesName(label: string, sender: string): boolean {
  const labelWords = nameWords(label);
  const senderWords = nameWords(sender);
  if (labelWords.length === 0) return true;
  const matched = labelWords.filter((word) => senderWords.some((candidate) => wordMatches(word, candidate))).length;
  return matched >= Math.min(2, labelWords.length);
}

/**
 * The senders that do not resemble the user: null when there is nothing to compare (no label from the
 * partner, or no transfer yet), else the differing names (empty when every sender resembles the user).
 */
export function senderNameMismatch(label: string | null, senders: readonly string[]): string[] | null {
  if (!label || nameWords(label).length === 0 || senders.length === 0) return null;
  return [...new Set(senders.filter((sender) => !resemblesName(label, sender)))];
}
