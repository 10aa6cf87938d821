import { normaliseIban } from '../iban.js';
import type { Statement, StatementLine } from '../statement.js';
import type { BankProfile } from './profile.js';
import { trGenericProfile } from './tr-generic.profile.js';
import { ziraatProfile } from './ziraat.profile.js';

export type { BankProfile, ProfileSample, ProfileSource } from './profile.js';
export { UNSOURCED_BANKS } from './unsourced.js';
export { trGenericProfile } from './tr-generic.profile.js';

/**
 * The banks whose layout a public source shows, one file each (profiles/*.profile.ts) with its own samples. Adding a
 * bank is its file and samples: docs/statements.md's table and the sample tests come from this list.
 */
export const BANK_PROFILES = [ziraatProfile] as const satisfies readonly BankProfile[];

/** The profile of the bank a Turkish IBAN is at (its five-digit bank code), or null for another bank or country. */
export function bankProfileOf(iban: string): BankProfile | null {
  const compact = normaliseIban(iban);
  if (!compact?.startsWith('TR')) return null;
  return BANK_PROFILES.find((profile) => profile.bankCode === compact.slice(4, 9)) ?? null;
}

/**
 * The statement with its credit lines' sender read from their free text by the profile of the bank `accountIban` is
 * at (by default the statement's own account), then by the generic Turkish reading: a sender's name by the bank's
 * profile, a sender's IBAN that is not the account's own. Only what the parser left unknown is filled: a bank's
 * structured fields (`?32`, `Dbtr/Nm`, `DbtrAcct`) win. A statement of an account outside Turkey is returned as it is.
 */
export function applyBankProfile(statement: Statement, accountIban: string): Statement {
  const own = normaliseIban(accountIban);
  if (!own?.startsWith('TR')) return statement;
  const profile = bankProfileOf(own);
  return { ...statement, lines: statement.lines.map((line) => (line.direction === 'credit' ? readSender(line, own, profile) : line)) };
}

function readSender(line: StatementLine, own: string, profile: BankProfile | null): StatementLine {
  const name = line.counterpartyName ?? senderNameOf(line.description, profile);
  // A parser's IBAN found in free text may be the account's own, which banks write beside the sender's.
  const knownIban = line.counterpartyIban && normaliseIban(line.counterpartyIban) !== own ? line.counterpartyIban : null;
  const iban = knownIban ?? trGenericProfile.senderIban(line.description, own);
  return name === line.counterpartyName && iban === line.counterpartyIban
    ? line
    : { ...line, counterpartyName: name, counterpartyIban: iban };
}

function senderNameOf(description: string, profile: BankProfile | null): string | null {
  const name = profile?.senderName?.pattern.exec(description)?.groups?.name?.replace(/\s+/g, ' ').trim();
  return name || null;
}
