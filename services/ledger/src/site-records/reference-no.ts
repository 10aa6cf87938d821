import { randomInt } from 'node:crypto';

/**
 * Reference numbers are what an end user types into a bank transfer's description, so they avoid
 * look-alike characters (no 0/O, 1/I/L), are short, upper-case, and end with a check character that
 * catches any single typo and any swap of two neighbours (weighted sum modulo a prime alphabet size).
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const BASE = REFERENCE_ALPHABET.length; // 31, a prime

/** A balance adjustment's reference is never typed by a user, but names its movement on the partner's statement. */
export type ReferenceKind = 'deposit' | 'withdrawal' | 'adjustment';
const PREFIX: Record<ReferenceKind, string> = { deposit: 'KD', withdrawal: 'KW', adjustment: 'KA' };
const BODY_LENGTH = 7;

/** Each character's place in the alphabet by its code, -1 outside it: matching tries thousands of candidates a file. */
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE; i += 1) VALUE[REFERENCE_ALPHABET.charCodeAt(i)] = i;
const valueOf = (code: number) => (code < 128 ? (VALUE[code] as number) : -1);

function checkCharacter(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) sum += (i + 1) * REFERENCE_ALPHABET.indexOf(body[i] as string);
  return REFERENCE_ALPHABET[sum % BASE] as string;
}

/** A fresh reference such as `KD7MX4Q2RH`: prefix, 7 random characters, check character. */
export function generateReferenceNo(kind: ReferenceKind): string {
  let body = PREFIX[kind];
  for (let i = 0; i < BODY_LENGTH; i += 1) body += REFERENCE_ALPHABET[randomInt(BASE)];
  return body + checkCharacter(body);
}

export function isValidReferenceNo(candidate: string): boolean {
  const length = 2 + BODY_LENGTH + 1;
  if (candidate.length !== length) return false;
  let sum = 0;
  for (let i = 0; i < length; i += 1) {
    const value = valueOf(candidate.charCodeAt(i));
    if (value < 0) return false;
    if (i < length - 1) sum += (i + 1) * value;
    else return sum % BASE === value;
  }
  return false;
}

/**
 * Finds deposit references in free text (a bank transfer description), tolerant of case, spaces, dots and
 * dashes inside the reference. Only candidates with a correct check character are returned.
 */
export function findReferenceNos(text: string, kind: ReferenceKind = 'deposit'): string[] {
  const compact = text.toUpperCase().replace(/[\s.\-_/]+/g, '');
  const prefix = PREFIX[kind];
  const found = new Set<string>();
  let index = compact.indexOf(prefix);
  while (index !== -1) {
    const candidate = compact.slice(index, index + 2 + BODY_LENGTH + 1);
    if (isValidReferenceNo(candidate)) found.add(candidate);
    index = compact.indexOf(prefix, index + 1);
  }
  return [...found];
}
