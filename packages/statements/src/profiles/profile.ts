/** Where a bank's layout was seen: a public page or repository anyone can open. */
export interface ProfileSource {
  /** What it is, in a few words. */
  title: string;
  /** A link pinned to a commit where it is a repository. */
  url: string;
  /** What the source shows, in our words (its text is not copied). */
  shows: string;
}

/** What a profile's own sample must read: each credit line's sender, by the line's bank reference. */
export interface ProfileSample {
  /** A file under packages/statements/test/samples/profiles/, written by us to the layout the source shows. */
  file: string;
  lines: ReadonlyArray<{ bankTxId: string; counterpartyName: string | null; counterpartyIban: string | null }>;
}

/**
 * What one bank writes where in the free text of a credit line (MT940 `:86:`, camt.053 `Ustrd`/`AddtlNtryInf`,
 * which the parsers read into `description`), declared as data. A profile only fills what the parser left unknown,
 * and only on credit lines (money in, whose sender matching weighs); a bank's structured fields always win.
 */
export interface BankProfile {
  readonly id: string;
  readonly bank: string;
  /** The bank's code in its Turkish IBANs: the five digits after `TRkk` (EFT code 0010 is `00010`). */
  readonly bankCode: string;
  readonly source: ProfileSource;
  /** The sender's name in the description, as the named group `name` of `pattern`. */
  readonly senderName?: { readonly pattern: RegExp; readonly inWords: string };
  readonly samples: readonly ProfileSample[];
}
