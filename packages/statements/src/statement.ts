/** The shape every format is read into: one account's statement for a period, and its booked lines. */

import type { StatementAccount } from './account-id.js';
import type { StatementFormat } from './formats/index.js';

/** A format's name: one of the registry's descriptors (formats/index.ts). */
export type { StatementFormat } from './formats/index.js';

/** One booked movement on the account, in the account holder's view (credit = money in). */
export interface StatementLine {
  /** The bank's own reference for the movement: the key to recognise it again in a later or repeated statement. */
  bankTxId: string;
  direction: 'credit' | 'debit';
  /** Minor units (kuruş for TRY), never negative: `direction` carries the sign. */
  amount: bigint;
  /** ISO 4217, as the bank gave it. */
  currency: string;
  /** A date the bank gave without a time is midnight UTC of that day: {@link StatementLine.timeKnown} says which. */
  bookedAt: Date;
  /**
   * Whether the bank gave a time of day with `bookedAt` (camt.053 `BookgDt/DtTm`, a CSV `booked_at` with a time); false
   * for a date alone (MT940, camt.053 `BookgDt/Dt`), which names the booking day and nothing finer.
   */
  timeKnown: boolean;
  /** The remittance text the payer typed (or the bank composed); '' when there is none. */
  description: string;
  /** The payer for a credit, the payee for a debit. */
  counterpartyName: string | null;
  counterpartyIban: string | null;
  endToEndId: string | null;
  /** ISO 20022 return reason code (AC01, AC04, AM04, MS03, ...) when the bank says the line returns a payment. */
  returnReason: string | null;
  /**
   * The payer's declared purpose of the transfer when the file carries one: an ISO 20022 ExternalPurpose1Code (`SALA`,
   * `SUPP`, `GDDS`, ...) from camt.053 `Purp/Cd` or MT940 `PURP+` / `/PURP/`, else a bank's own `Purp/Prtry` text.
   */
  purpose: string | null;
  /** The line undoes an earlier one; `direction` is the direction of this line's own effect on the balance. */
  reversal: boolean;
  /** Charges the bank reports for the line (informational: they are not part of the balance arithmetic). */
  charges: bigint | null;
}

export interface Statement {
  id: string;
  /** The account as the bank wrote it: an IBAN, or an account number with its bank and branch codes (account-id.ts). */
  account: StatementAccount;
  currency: string;
  /** Signed minor units: negative is an overdrawn account. */
  openingBalance: bigint;
  closingBalance: bigint;
  from: Date | null;
  to: Date | null;
  /** Whether `from` and `to` carry a time of day (camt.053 `FrDtTm`/`ToDtTm`); false for dates alone (MT940 balances). */
  timeKnown: boolean;
  lines: StatementLine[];
}

/**
 * A statement of a file that cannot be read while the file's others can (MT940: one without its closing balance, as a
 * file cut short or an unfinished last statement). None of its lines is in `statements`.
 */
export interface RefusedStatement {
  /** `:20:/:28C:` as far as the statement has them. */
  statementId: string;
  /** Where the statement starts: `line 12`. */
  location: string;
  reason: string;
}

/** What a format's parser reads from a body: the statements, and those it had to set aside. */
export interface StatementsRead {
  statements: Statement[];
  /** Empty unless a format can set one statement aside and read the others (MT940). */
  refused: RefusedStatement[];
}

export interface ParsedStatements extends StatementsRead {
  format: StatementFormat;
}

/**
 * The only error the package throws for bad input. `location` says where: `line 12` for text formats (MT940, CSV,
 * malformed XML), an element path such as `Stmt[1]/Ntry[3]/Amt` (1-based) for CAMT.
 */
export class StatementError extends Error {
  constructor(
    /** What is wrong, without the place (`message` is both: `location: reason`). */
    readonly reason: string,
    readonly location: string,
  ) {
    super(`${location}: ${reason}`);
    this.name = 'StatementError';
  }
}
