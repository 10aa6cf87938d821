/** IBANs as banks write them (spaced, lower case, behind a bank code) brought to one compact, checked form. */

const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
/** An IBAN inside free text, possibly written in groups of four: `TR33 0006 1005 ...`. */
const IBAN_IN_TEXT = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
/** Turkish IBANs are always 26 characters; knowing that keeps `TR..` followed by other digits from swallowing them. */
const TR_IBAN_IN_TEXT = /\bTR\d{2}(?: ?\d){22}/g;

/** ISO 13616 check: move the first four characters to the end, letters to numbers, remainder 97 must be 1. */
export function isIban(candidate: string): boolean {
  if (!IBAN_SHAPE.test(candidate)) return false;
  const rearranged = candidate.slice(4) + candidate.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    remainder = (remainder * (value >= 10 ? 100 : 10) + value) % 97;
  }
  return remainder === 1;
}

/** The compact upper-case IBAN if `text` is one (spaces allowed), else null. */
export function normaliseIban(text: string): string | null {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return isIban(compact) ? compact : null;
}

/** The first valid IBAN written anywhere in `text` (Turkish ones first), else null. */
export function findIban(text: string): string | null {
  for (const pattern of [TR_IBAN_IN_TEXT, IBAN_IN_TEXT]) {
    for (const match of text.toUpperCase().matchAll(pattern)) {
      const iban = normaliseIban(match[0]);
      if (iban) return iban;
    }
  }
  return null;
}
