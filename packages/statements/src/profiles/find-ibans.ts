import { normaliseIban } from '../iban.js';

/** A Turkish IBAN in free text, compact or in groups of four: `TR` and 24 digits, where the text may run on into letters (a wrapped line). */
const TR_IBAN_IN_TEXT = /\bTR\d{2}(?: ?\d){22}(?!\d)/gi;

/** Every valid Turkish IBAN written in `text`, compact and upper case, in the order written. */
export function findIbans(text: string): string[] {
  return [...text.matchAll(TR_IBAN_IN_TEXT)].flatMap((match) => normaliseIban(match[0]) ?? []);
}
