/** Types of ledger-imports.mjs, for the test that holds the ledger's folders to one-way arrows. */
export interface LedgerArrow {
  from: string;
  to: string;
  imports: number;
  files: string[];
}
export interface LedgerArrowSummary {
  folders: number;
  arrows: number;
  imports: number;
  twoWay: string[];
  upward: string[];
  upwardImports: number;
}
export function ledgerArrows(planted?: ReadonlyArray<{ path: string; text: string }>): LedgerArrow[];
export function summary(arrows: LedgerArrow[], layers?: ReadonlyArray<{ folders: string[]; peers?: boolean }>): LedgerArrowSummary;
