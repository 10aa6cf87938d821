import { normalizeReference } from '../shared/ops-list.use-case.js';
import { isUuid } from '../shared/http-guards.js';

/** What an operator typed, read every way it could be meant. */
export interface SearchTerms {
  /** As typed, trimmed: a bank transaction id is matched exactly. */
  text: string;
  /**
   * As typed, when it has the shape the partner API accepts for a user id (1 to 64 of `A-Z a-z 0-9 . _ : @ -`,
   * contracts' externalUserId): a name with a space or a Turkish letter cannot be one, so it is not looked up as one.
   */
  userId: string | null;
  /** A record's, an event's or a transfer's id. */
  id: string | null;
  /** Upper case without spaces or dashes, when it could be a reference (`kd7m x4q2-rh`). */
  reference: string | null;
  /** The digits at the end of an IBAN (4 to 26 of them, spaces ignored), or a whole IBAN. */
  ibanTail: string | null;
  /**
   * Text to find inside a sender's, a holder's or a user's name: only when it has 3 letters or digits in a row,
   * the least a trigram index can look up (shorter text, or only punctuation, would read the whole index).
   */
  name: string | null;
}

const EXTERNAL_USER_ID = /^[A-Za-z0-9._:@-]{1,64}$/;

export function searchTermsOf(typed: string): SearchTerms {
  const text = typed.trim();
  const compact = text.replace(/\s+/g, '');
  const reference = normalizeReference(text);
  const iban = compact.toUpperCase();
  return {
    text,
    userId: EXTERNAL_USER_ID.test(text) ? text : null,
    id: isUuid(text.toLowerCase()) ? text.toLowerCase() : null,
    reference: /^[A-Z0-9]{6,16}$/.test(reference) ? reference : null,
    ibanTail: /^[0-9]{4,26}$/.test(compact) ? compact : /^TR[0-9]{24}$/.test(iban) ? iban : null,
    name: /[\p{L}\p{N}]{3}/u.test(text) ? text : null,
  };
}
