/** Another project's parse of a corpus file, reduced to what our parse can be compared with. */

/** One booked line as the reference parsed it. A field left undefined is one the reference does not give. */
export interface ReferenceLine {
  /** Signed decimal text as the reference wrote it (`-25.03`): negative is money out. */
  amount: string;
  /** `YYYY-MM-DD`: the booking (entry) date where the reference has one, else its value date. */
  date?: string;
  /** The references the reference read for the line; our `bankTxId` (or `endToEndId`) should be one of them. */
  references?: string[];
  counterpartyName?: string | null;
  counterpartyIban?: string | null;
  description?: string | null;
}

export interface ReferenceBalances {
  opening: string | null;
  closing: string | null;
}

export interface Reference {
  /** Every line of the file in order, across its statements. */
  lines: ReferenceLine[];
  /**
   * `each`: one per statement, in order. `any`: balances the reference kept without saying of which statement (the
   * Python mt940 library keeps the last :60F:, :60M:, :62F: and :62M: it saw), each to be found among the statements.
   * `one`: one statement's only, the one `statementId` names, and `lines` are that statement's lines (genkgo/camt's
   * dump).
   */
  balances: ReferenceBalances[];
  balancesOf: 'each' | 'any' | 'one';
  statementId?: string;
}
