import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

/** Spaces stripped, letters upper-cased: the form that is checked and stored. */
export function normalizeIban(raw: string): string {
  return electronicFormatIBAN(raw.replace(/\s+/g, '')) ?? raw.replace(/\s+/g, '').toUpperCase();
}

/** A valid Turkish IBAN: TR, 26 characters, correct BBAN structure and mod-97 checksum. */
export function isValidTrIban(raw: string): boolean {
  const iban = normalizeIban(raw);
  return iban.length === 26 && iban.startsWith('TR') && isValidIBAN(iban);
}
