/**
 * The statement's own account as the bank wrote it (MT940 `:25:`, camt.053 `Acct/Id`), and whether it is a given
 * receiving account. Banks write an IBAN, an IBAN behind a bank code, a bank code and an account number, an account
 * number with its currency, or a Turkish bank, branch and legacy account number; only an empty one says nothing.
 */
import { normaliseIban } from './iban.js';
import { StatementError } from './statement.js';

/** The account a statement is of. At least one of `iban` and `number` is set. */
export interface StatementAccount {
  /** The compact upper-case IBAN, when the bank wrote one whose ISO 13616 check digits hold; else null. */
  iban: string | null;
  /** The account number when the bank wrote no valid IBAN (an IBAN whose check digits fail is kept here), compact. */
  number: string | null;
  /** What stands before the number or IBAN: a BIC (`ABNANL2A`), a German bank code (`50010517`), a Turkish bank code (`0067`). */
  bankCode: string | null;
  /** A Turkish branch code, written between the bank code and the account number (`0067-00763/93984487`). */
  branchCode: string | null;
  /** The field as the bank wrote it, trimmed. */
  raw: string;
}

/** A receiving account's identification, as Kasa keeps it. */
export interface KnownAccount {
  iban: string;
  accountNumber: string | null;
  branchCode: string | null;
}

/** `123456789EUR`, `1291.99.348EUR`, `.../HUF`: an account number followed by its ISO 4217 currency. */
const CURRENCY_SUFFIX = /(?<=[0-9])\s*\/?[A-Z]{3}$/;
/** A Turkish bank and branch before the slash: `0067-00763`. */
const BANK_AND_BRANCH = /^(\d{3,5})-(\d{1,5})$/;

/** The account written in a statement, from MT940 `:25:` or camt.053's account id; refused only when empty. */
export function readAccount(text: string, where: string): StatementAccount {
  const raw = text.trim();
  if (raw === '') throw new StatementError('the account is empty', where);
  const whole = normaliseIban(raw);
  if (whole) return { iban: whole, number: null, bankCode: null, branchCode: null, raw };

  const withoutCurrency = raw.replace(CURRENCY_SUFFIX, '');
  const slash = withoutCurrency.lastIndexOf('/');
  const head = slash > 0 ? withoutCurrency.slice(0, slash).trim() : '';
  const tail = (slash >= 0 ? withoutCurrency.slice(slash + 1) : withoutCurrency).replace(/\s+/g, '').toUpperCase();
  const bankAndBranch = BANK_AND_BRANCH.exec(head);
  const codes = bankAndBranch
    ? { bankCode: bankAndBranch[1] ?? null, branchCode: bankAndBranch[2] ?? null }
    : { bankCode: head === '' ? null : head, branchCode: null };
  const iban = normaliseIban(tail);
  // A field of only a bank code and a slash (`ABNANL2A/`) leaves no number: the whole field is then the number.
  const number = iban ? null : tail === '' ? raw.replace(/\s+/g, '').toUpperCase() : tail;
  return { iban, number, ...codes, raw };
}

/** The account of a statement in Kasa's own layouts, which always name a valid IBAN. */
export function ibanAccount(iban: string): StatementAccount {
  return { iban, number: null, bankCode: null, branchCode: null, raw: iban };
}

/**
 * Whether the statement's account is `ours`: its IBAN is ours; or (when it names no valid IBAN) its account number
 * is our account number, or is the account our Turkish IBAN carries in its last 16 digits. Numbers compare without
 * spaces, dashes, dots and leading zeros. A branch code on both sides must agree, and a numeric bank code in the file
 * must be our IBAN's bank code. A number that is only part of ours (a stranger's `3984487` against our `93984487`) is
 * not ours, nor is the tail of the number we keep read off our IBAN after our branch code.
 */
export function isAccountOf(account: StatementAccount, ours: KnownAccount): boolean {
  if (account.iban) return account.iban === ours.iban;
  const number = numberKey(account.number);
  if (number === '') return false;
  if (!codesAgree(account, ours)) return false;
  const ourNumber = numberKey(ours.accountNumber);
  if (number === ourNumber) return true;
  // The number we keep is what the bank says the account is: a file's number that is only its tail is another account's,
  // even where our IBAN could be read as our branch code and that tail (`763861722` kept, `861722` at branch 763).
  if (ourNumber !== '' && ourNumber.endsWith(number)) return false;
  return embedsNumber(ours.iban, number, ours.branchCode);
}

function codesAgree(account: StatementAccount, ours: KnownAccount): boolean {
  const theirBranch = numberKey(account.branchCode);
  const ourBranch = numberKey(ours.branchCode);
  if (theirBranch !== '' && ourBranch !== '' && theirBranch !== ourBranch) return false;
  // A numeric bank code must be the one in our Turkish IBAN (its five digits after the check digits): `0067` is
  // Yapı Kredi's 00067, a German `50010517` no Turkish bank's. Kasa keeps no BIC, so a BIC is not compared.
  const bank = account.bankCode && /^\d+$/.test(account.bankCode) ? numberKey(account.bankCode) : null;
  return bank === null || !ours.iban.startsWith('TR') || bank === numberKey(ours.iban.slice(4, 9));
}

/**
 * A Turkish IBAN is TRkk, a 5-digit bank code, a reserve digit and a 16-digit account that ends with the account
 * number; before the number stand zeros, or the branch code we keep for the account among zeros (a file's own branch
 * code is not trusted for this: `0067-9/3984487` must not make our `...0000000093984487` its account). Anything else
 * before it (the leading digits of a longer number) means another account.
 */
function embedsNumber(iban: string, number: string, branchCode: string | null): boolean {
  if (!/^TR\d{24}$/.test(iban)) return false;
  const accountPart = iban.slice(10);
  if (!accountPart.endsWith(number)) return false;
  const before = accountPart.slice(0, accountPart.length - number.length);
  if (/^0*$/.test(before)) return true;
  const branch = numberKey(branchCode);
  return /^\d+$/.test(branch) && new RegExp(`^0*${branch}0*$`).test(before);
}

/** An account number or code compared as digits and letters only, without leading zeros. */
function numberKey(text: string | null): string {
  return (text ?? '')
    .replace(/[\s.-]/g, '')
    .toUpperCase()
    .replace(/^0+/, '');
}

/** An account number for a message that may be logged: its last four characters only. */
export function maskAccountNumber(number: string): string {
  const compact = number.replace(/\s+/g, '');
  return compact.length <= 4 ? '****' : `****${compact.slice(-4)}`;
}
